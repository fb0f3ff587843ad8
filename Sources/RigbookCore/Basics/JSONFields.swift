/// One field of a record kind as JSON: its name and how it is read and written. A kind's fields are one list
/// (`[JSONField<Values>]`) that its `Codable` conformance runs through, so a field added to the list is read and
/// written everywhere the kind's JSON goes (drafts, history, exports, the keystroke journal's fast line) with no
/// encoder or decoder written per field.
public struct JSONField<Values>: Sendable {
    public let key: String
    let write: @Sendable (Values, inout KeyedEncodingContainer<JSONKey>) throws -> Void
    let read: @Sendable (inout Values, KeyedDecodingContainer<JSONKey>) throws -> Void
    /// The field as `write` writes it, straight into bytes; false where it cannot (the encoder then writes it).
    let bytes: @Sendable (Values, inout JSONObjectBytes) -> Bool

    init(key: String, write: @escaping @Sendable (Values, inout KeyedEncodingContainer<JSONKey>) throws -> Void,
         read: @escaping @Sendable (inout Values, KeyedDecodingContainer<JSONKey>) throws -> Void,
         bytes: @escaping @Sendable (Values, inout JSONObjectBytes) -> Bool) {
        self.key = key
        self.write = write
        self.read = read
        self.bytes = bytes
    }

    /// The bytes of `"key":value`, unless `omitted` says the value is left out.
    private static func bytes<T: JSONBytesWritable>(_ key: String, _ path: KeyPath<Values, T> & Sendable,
                                                    omitted: (@Sendable (T) -> Bool)? = nil)
        -> @Sendable (Values, inout JSONObjectBytes) -> Bool {
        let quoted = Array(key.utf8)
        return { values, object in
            let value = values[keyPath: path]
            if omitted?(value) == true { return true }
            object.key(quoted: quoted)
            return value.appendJSON(to: &object)
        }
    }

    /// A value every file has: reading fails without it.
    public static func required<T: Codable & Sendable & JSONBytesWritable>(
        _ key: String, _ path: WritableKeyPath<Values, T> & Sendable) -> Self {
        JSONField(key: key, write: { values, c in try c.encode(values[keyPath: path], forKey: JSONKey(key)) },
                  read: { values, c in values[keyPath: path] = try c.decode(T.self, forKey: JSONKey(key)) },
                  bytes: bytes(key, path))
    }

    /// A value files written before it existed lack (then `absent`); not written while `omitted` says so, so
    /// a file without it reads as it did. `tolerant`: a value a later build wrote in a shape this one cannot read
    /// reads as `absent` too, rather than the whole file unreadable.
    public static func added<T: Codable & Sendable & JSONBytesWritable>(
        _ key: String, _ path: WritableKeyPath<Values, T> & Sendable, absent: T,
        omitted: (@Sendable (T) -> Bool)? = nil, tolerant: Bool = false) -> Self {
        JSONField(key: key, write: { values, c in
            let value = values[keyPath: path]
            if omitted?(value) != true { try c.encode(value, forKey: JSONKey(key)) }
        }, read: { values, c in
            let read = tolerant ? (try? c.decodeIfPresent(T.self, forKey: JSONKey(key))) ?? nil
                : try c.decodeIfPresent(T.self, forKey: JSONKey(key))
            values[keyPath: path] = read ?? absent
        }, bytes: bytes(key, path, omitted: omitted))
    }

    /// The field written only while `condition` holds of the values (read as always).
    public func written(when condition: @escaping @Sendable (Values) -> Bool) -> Self {
        let (write, bytes) = (self.write, self.bytes)
        return JSONField(key: key, write: { values, c in if condition(values) { try write(values, &c) } }, read: read,
                         bytes: { values, object in !condition(values) || bytes(values, &object) })
    }

    /// A choice that may be unmade: written as null when none is chosen (that is a value), read as none when null
    /// or absent.
    public static func nullable<T: Codable & Sendable & JSONBytesWritable>(
        _ key: String, _ path: WritableKeyPath<Values, T?> & Sendable) -> Self {
        JSONField(key: key, write: { values, c in try c.encode(values[keyPath: path], forKey: JSONKey(key)) },
                  read: { values, c in values[keyPath: path] = try c.decodeIfPresent(T.self, forKey: JSONKey(key)) },
                  bytes: bytes(key, path))
    }
}

/// A JSON object's key, by name.
public struct JSONKey: CodingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }
    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

extension Array {
    /// The values read from `decoder` field by field, starting from `blank`.
    public func read<Values>(from decoder: Decoder, into blank: Values) throws -> Values
        where Element == JSONField<Values> {
        let c = try decoder.container(keyedBy: JSONKey.self)
        var values = blank
        for field in self { try field.read(&values, c) }
        return values
    }

    /// Writes `values` to `encoder` field by field, in the list's order.
    public func write<Values>(_ values: Values, to encoder: Encoder) throws where Element == JSONField<Values> {
        var c = encoder.container(keyedBy: JSONKey.self)
        for field in self { try field.write(values, &c) }
    }

    /// The list in the order `JSONEncoder`'s `.sortedKeys` writes it: what `jsonBytes` takes.
    public func sortedByKey<Values>() -> [JSONField<Values>] where Element == JSONField<Values> {
        sorted { $0.key < $1.key }
    }

    /// `values` as the object `write` makes with sorted keys, straight into bytes (the list sorted by
    /// `sortedByKey`); nil when a value is one the encoder must write.
    public func jsonBytes<Values>(_ values: Values) -> [UInt8]? where Element == JSONField<Values> {
        var object = JSONObjectBytes()
        for field in self where !field.bytes(values, &object) { return nil }
        return object.closed()
    }

    /// Every name the list reads and writes.
    public func keys<Values>() -> Set<String> where Element == JSONField<Values> { Set(map(\.key)) }
}
