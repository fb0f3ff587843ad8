import Foundation

/// The keys of a draft file this build does not know, at its top level and inside its `values`: a newer
/// Rigbook's, since drafts gain keys without a new `schema_version` (docs/FORMATS.md). They are kept as the JSON
/// they were written as and written back with every rewrite of the draft, byte for byte: a draft opened in an
/// older build, typed into and kept must still hold what the newer build put there when the newer build reads it.
public struct UnknownDraftKeys: Sendable, Hashable {
    /// One member of a JSON object as it was written: its key (quotes and escapes included) and its value.
    public struct Member: Sendable, Hashable {
        /// The key as a string (escapes undone): what decides whether this build knows it.
        public var name: String
        var key: [UInt8]
        var value: [UInt8]
    }

    /// Members of the draft's object.
    public private(set) var topLevel: [Member] = []
    /// Members of its `values` object.
    public private(set) var values: [Member] = []

    public init() {}

    public var isEmpty: Bool { topLevel.isEmpty && values.isEmpty }

    /// The members of the draft JSON `json` whose keys are not in `known` (top level) or in `knownValues`
    /// (inside `values`). Nothing for JSON that is not an object.
    public init(in json: [UInt8], known: Set<String>, knownValues: Set<String>) {
        guard let members = JSONMembers.of(json) else { return }
        topLevel = members.filter { !known.contains($0.name) }
        if let values = members.first(where: { $0.name == "values" }), let inner = JSONMembers.of(values.value) {
            self.values = inner.filter { !knownValues.contains($0.name) }
        }
    }

    /// `encoded` — a draft as this build's `JSONEncoder` wrote it, pretty printed or on one line — with these
    /// members added back where they were found. A key the encoder wrote is never written twice: this build's
    /// value stands. `encoded` comes back as it is when there is nothing to add.
    public func restored(into encoded: [UInt8], pretty: Bool) -> [UInt8] {
        guard !isEmpty, var members = JSONMembers.of(encoded) else { return encoded }
        if !values.isEmpty, let index = members.firstIndex(where: { $0.name == "values" }),
           let inner = JSONMembers.of(members[index].value) {
            members[index].value = JSONMembers.object(JSONMembers.adding(values, to: inner, pretty: pretty),
                                                      depth: 1, pretty: pretty)
        }
        return JSONMembers.object(JSONMembers.adding(topLevel, to: members, pretty: pretty), depth: 0, pretty: pretty)
    }
}

/// A JSON object read as its members' bytes, and written back from them. The JSON has already been read whole
/// by Foundation (a draft is checked before its keys are looked at), so this only finds where each member starts
/// and ends; it judges nothing else.
enum JSONMembers {
    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    private static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    private static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func skipSpace(_ bytes: [UInt8], _ index: Int) -> Int {
        var index = index
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index
    }

    /// The members of the object `bytes` holds, in the order written; nil when it holds anything else.
    static func of(_ bytes: [UInt8]) -> [UnknownDraftKeys.Member]? {
        var index = skipSpace(bytes, 0)
        guard index < bytes.count, bytes[index] == openBrace else { return nil }
        index = skipSpace(bytes, index + 1)
        var members: [UnknownDraftKeys.Member] = []
        if index < bytes.count, bytes[index] == closeBrace { return members }
        while true {
            guard index < bytes.count, bytes[index] == quote, let keyEnd = stringEnd(bytes, from: index) else {
                return nil
            }
            let key = Array(bytes[index..<keyEnd])
            index = skipSpace(bytes, keyEnd)
            guard index < bytes.count, bytes[index] == colon else { return nil }
            index = skipSpace(bytes, index + 1)
            guard let valueEnd = valueEnd(bytes, from: index), let name = name(of: key) else { return nil }
            members.append(.init(name: name, key: key, value: Array(bytes[index..<valueEnd])))
            index = skipSpace(bytes, valueEnd)
            guard index < bytes.count else { return nil }
            if bytes[index] == closeBrace { return members }
            guard bytes[index] == comma else { return nil }
            index = skipSpace(bytes, index + 1)
        }
    }

    /// A key's text: its bytes between the quotes, unless it holds an escape (`"\u006eotes"` is `notes`).
    private static func name(of key: [UInt8]) -> String? {
        guard key.contains(backslash) else { return String(decoding: key.dropFirst().dropLast(), as: UTF8.self) }
        return try? JSONDecoder().decode(String.self, from: Data(key))
    }

    /// Just past the string that starts at `start` (a quote).
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case backslash: index += 2
            case quote: return index + 1
            default: index += 1
            }
        }
        return nil
    }

    /// Just past the value that starts at `start`: a string, an object or array (to its matching bracket, strings
    /// inside skipped whole), or a number or literal (to the next space, comma or bracket).
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case quote:
            return stringEnd(bytes, from: start)
        case openBrace, openBracket:
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    guard let end = stringEnd(bytes, from: index) else { return nil }
                    index = end
                    continue
                case openBrace, openBracket: depth += 1
                case closeBrace, closeBracket:
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return nil
        default:
            var index = start
            while index < bytes.count, !isSpace(bytes[index]),
                  ![comma, closeBrace, closeBracket].contains(bytes[index]) { index += 1 }
            return index > start ? index : nil
        }
    }

    /// `members` with `kept` added, each before the first member whose key sorts after its own (the encoder
    /// sorts keys), unless a member of that name is there already. On one line (a journal line), a kept value
    /// written over several lines is put on one (`oneLine`).
    static func adding(_ kept: [UnknownDraftKeys.Member], to members: [UnknownDraftKeys.Member],
                       pretty: Bool) -> [UnknownDraftKeys.Member] {
        var out = members
        for var member in kept where !out.contains(where: { $0.name == member.name }) {
            if !pretty { member.value = oneLine(member.value) }
            let at = out.firstIndex { member.name.utf8.lexicographicallyPrecedes($0.name.utf8) } ?? out.endIndex
            out.insert(member, at: at)
        }
        return out
    }

    /// An object of `members` as `JSONEncoder` lays one out: pretty printed at nesting `depth` (two spaces a
    /// level, `"key" : value`), or on one line.
    static func object(_ members: [UnknownDraftKeys.Member], depth: Int, pretty: Bool) -> [UInt8] {
        guard pretty else {
            var out: [UInt8] = [openBrace]
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(comma) }
                out += member.key + [colon] + member.value
            }
            return out + [closeBrace]
        }
        let inner = [UInt8](repeating: 0x20, count: 2 * (depth + 1))
        var out: [UInt8] = [openBrace, 0x0A]
        for (index, member) in members.enumerated() {
            if index > 0 { out += [comma, 0x0A] }
            out += inner + member.key + Array(" : ".utf8) + member.value
        }
        return out + [0x0A] + [UInt8](repeating: 0x20, count: 2 * depth) + [closeBrace]
    }

    /// `value` on one line: each line break between its tokens goes, with the indent after it. Nothing else
    /// changes (a value already on one line comes back as it is), and no byte of a string is touched.
    private static func oneLine(_ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        var index = 0
        while index < value.count {
            let byte = value[index]
            if byte == quote, let end = stringEnd(value, from: index) {
                out += value[index..<end]
                index = end
            } else if byte == 0x0A || byte == 0x0D {
                index = skipSpace(value, index)
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }
}
