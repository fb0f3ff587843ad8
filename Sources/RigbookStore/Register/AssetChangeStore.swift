import Foundation
import RigbookCore

/// Asset changes: one append-only row of `asset_changes` per field changed, an entry of the
/// hash chain (`kind asset_change`). The asset's current values live in `assets` and change in the same
/// transaction; what it was added as (what its own hash covers) moves to `assets.as_added` at its first
/// change. Of several changes of one field, the later `(changed_at, change_uuid)` holds, on every register.
enum AssetChangeStore {
    static let select = """
        SELECT change_uuid, asset_uuid, field, old_value, new_value, reason, changed_at, operator, session_id,
               entry_hash FROM asset_changes
        """

    /// A field's value as the asset's column stores it.
    static func sqlValue(_ value: AssetFieldValue) -> SQLValue {
        switch value {
        case .none: .null
        case .text(let t): .text(t)
        case .number(let n): .real(n)
        case .integer(let i): .integer(Int64(i))
        case .flag(let f): .bool(f)
        case .date(let d): .text(d.iso)
        }
    }

    static func change(_ s: Statement) -> AssetChange? {
        guard let field = AssetField(rawValue: s.text(2)) else { return nil }
        return AssetChange(changeUUID: s.uuid(0) ?? UUID(), assetUUID: s.uuid(1) ?? UUID(), field: field,
                           oldValue: s.fieldValue(field, 3), newValue: s.fieldValue(field, 4),
                           reason: s.text(5), changedAt: s.text(6), operatorName: s.text(7),
                           sessionID: s.optionalText(8), entryHash: s.optionalText(9))
    }

    /// Appends one change onto the chain. Only inside a write transaction.
    static func append(_ db: Database, _ change: AssetChange) throws {
        try HashChain.append(db, HashChain.assetChange, [
            .text(change.changeUUID.uuidString), .text(change.assetUUID.uuidString), .text(change.field.rawValue),
            sqlValue(change.oldValue), sqlValue(change.newValue), .text(change.reason), .text(change.changedAt),
            .text(change.operatorName), change.sessionID.map(SQLValue.text) ?? .null,
        ])
    }

    /// Keeps the asset's canonical columns as they are now in `as_added`, unless kept already: called before
    /// its first change, so its hash keeps covering what was added.
    static func keepAsAdded(_ db: Database, assetUUID: UUID) throws {
        let kind = HashChain.asset
        let statement = try db.prepare("SELECT \(kind.hashed.joined(separator: ", ")) FROM assets"
                                       + " WHERE uuid = ? AND as_added IS NULL")
        try statement.bind([.text(assetUUID.uuidString)])
        guard try statement.step() else { return }
        // With the extension columns that are not NULL (an electrical asset's), as its hash covers them.
        let body = HashChain.body(kind) { statement.value(Int32(kind.hashed.firstIndex(of: $0)!)) }
        try db.run("UPDATE assets SET as_added = ? WHERE uuid = ?", [.text(body), .text(assetUUID.uuidString)])
    }

    /// Writes the asset's current values (every field, and the tag's key when the tag changed).
    static func writeCurrent(_ db: Database, _ asset: Asset, tagChanged: Bool) throws {
        let fields = AssetField.allCases
        try db.run("UPDATE assets SET " + fields.map { "\($0.rawValue) = ?" }.joined(separator: ", ")
                   + (tagChanged ? ", tag_key = ?" : "") + " WHERE uuid = ?",
                   fields.map { sqlValue($0.value(in: asset)) } + (tagChanged ? [.text(Tags.key(asset.tag))] : [])
                   + [.text(asset.uuid.uuidString)])
    }

    /// A change's time: now, or just after the asset's latest change when the clock says otherwise, so a new
    /// change always holds over the ones before it.
    static func changeTime(_ db: Database, assetUUID: UUID, now: String) throws -> String {
        try laterTime(db, "SELECT max(changed_at) FROM asset_changes WHERE asset_uuid = ?",
                      [.text(assetUUID.uuidString)], now: now)
    }

    /// `now`, or a millisecond after the latest time `query` finds when that is not before it: versions of one
    /// subject are ordered by time on every register (ties go by uuid, which no one chose), so a new version
    /// must be later than the one it replaces.
    static func laterTime(_ db: Database, _ query: String, _ arguments: [SQLValue], now: String) throws -> String {
        guard case .text(let last)? = try db.scalar(query, arguments),
              now <= last, let lastDate = Timestamp.parse(last) else { return now }
        return Timestamp.string(lastDate.addingTimeInterval(0.001))
    }

    /// What the asset's columns must hold: what it was added as (`as_added`, else its columns), each field
    /// replaced by its latest change. Nil when its `as_added` cannot be read.
    static func expectedColumns(_ db: Database, assetUUID: UUID, asAdded: String?,
                                current: [String: SQLValue]) throws -> [String: SQLValue]? {
        var values = current
        if let asAdded {
            guard let added = HashChain.parseBody(asAdded) else { return nil }
            for field in AssetField.allCases { values[field.rawValue] = added[field.rawValue] ?? .null }
        }
        let statement = try db.prepare("SELECT field, new_value FROM asset_changes WHERE asset_uuid = ?"
                                       + " ORDER BY changed_at, change_uuid")
        try statement.bind([.text(assetUUID.uuidString)])
        while try statement.step() { values[statement.text(0)] = statement.value(1) }
        return values
    }

    /// The first asset whose columns are not what it was added as with its changes applied, as a sentence for
    /// `verify`; nil when all are.
    static func foldProblem(_ db: Database) throws -> String? {
        let fields = AssetField.allCases.map(\.rawValue)
        let statement = try db.prepare("""
            SELECT uuid, as_added, \(HashChain.asset.label), \(fields.joined(separator: ", ")) FROM assets
            WHERE as_added IS NOT NULL OR uuid IN (SELECT asset_uuid FROM asset_changes) ORDER BY tag
            """)
        while try statement.step() {
            let name = statement.text(2)
            guard let uuid = statement.uuid(0) else { continue }
            let asAdded = statement.optionalText(1)
            if asAdded == nil { return "\(name) has changes but not what it was added as (as_added)" }
            var current: [String: SQLValue] = [:]
            for (offset, field) in fields.enumerated() { current[field] = statement.value(Int32(3 + offset)) }
            guard let expected = try expectedColumns(db, assetUUID: uuid, asAdded: asAdded, current: current) else {
                return "\(name) keeps what it was added as in a form that cannot be read"
            }
            if let field = fields.first(where: { expected[$0] != current[$0] }) {
                return "\(name) holds a \(field) that none of its changes gave it"
            }
        }
        return nil
    }
}

extension Register {
    /// Changes an asset to `edited` (the same uuid): one `asset_changes` entry per field that differs, and the
    /// asset's columns, in one transaction. Checked under the write lock as adding checks (the tag unique once
    /// folded, every field's own rules), and a reason is required. Returns the changes kept (none when
    /// nothing differs). A change of the interval or the commission date moves the due date at once.
    @discardableResult
    public func change(assetUUID: UUID, to edited: Asset, reason: String, stamp: SaveStamp = SaveStamp(),
                       sessionID: String? = nil) throws(RegisterError) -> [AssetChange] {
        var edited = edited
        edited.uuid = assetUUID
        edited.tag = Tags.normalized(edited.tag)
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        return try perform {
            try db.transaction {
                guard let current = try asset(uuid: assetUUID)?.asset else {
                    throw RegisterError.unknownAsset(assetUUID.uuidString.lowercased())
                }
                let fields = AssetField.differences(from: current, to: edited)
                guard !fields.isEmpty else { return [] }
                var problems = edited.problems()
                if (edited.retiredOn == nil) != (edited.disposition == nil) {
                    problems.append("A retired asset needs both the date and how it left service.")
                }
                if reason.isEmpty { problems.append("A change of an asset needs a reason.") }
                if reason.count > Asset.maxTextLength || TextRules.containsControlCharacters(reason) {
                    problems.append("The reason holds control characters or is longer than "
                                    + "\(Asset.maxTextLength) characters.")
                }
                guard problems.isEmpty else { throw RegisterError.invalidAsset(problems) }
                let tagChanged = fields.contains(.tag)
                if tagChanged, let refusal = try refusal(ofNewTag: edited.tag, for: assetUUID) { throw refusal }
                try AssetChangeStore.keepAsAdded(db, assetUUID: assetUUID)
                let at = try AssetChangeStore.changeTime(db, assetUUID: assetUUID, now: stamp.savedAt)
                let changes = fields.map {
                    AssetChange(assetUUID: assetUUID, field: $0, oldValue: $0.value(in: current),
                                newValue: $0.value(in: edited), reason: reason, changedAt: at,
                                operatorName: stamp.operatorName, sessionID: sessionID)
                }
                for change in changes { try AssetChangeStore.append(db, change) }
                try AssetChangeStore.writeCurrent(db, edited, tagChanged: tagChanged)
                // The due date follows the interval and the commission date.
                try refreshSummary(asset: edited)
                return changes
            }
        }
    }

    /// Retires an asset: it leaves the active list, `due` and the calendar; its records stay.
    @discardableResult
    public func retire(assetUUID: UUID, as disposition: Disposition, on date: CalendarDate, reason: String,
                       stamp: SaveStamp = SaveStamp()) throws(RegisterError) -> [AssetChange] {
        guard var asset = try asset(uuid: assetUUID)?.asset else {
            throw .unknownAsset(assetUUID.uuidString.lowercased())
        }
        if asset.isRetired {
            throw .invalidAsset(["\(asset.tag) was retired on \(asset.retiredOn!.iso) already."])
        }
        if let commissioned = asset.commissioned, date < commissioned {
            throw .invalidAsset(["\(asset.tag) cannot leave service on \(date.iso), before it was commissioned"
                                 + " (\(commissioned.iso))."])
        }
        asset.retiredOn = date
        asset.disposition = disposition
        return try change(assetUUID: assetUUID, to: asset, reason: reason, stamp: stamp)
    }

    /// Every change of an asset, oldest first (in the order they hold: `changed_at`, then change uuid).
    public func assetChanges(assetUUID: UUID) throws(RegisterError) -> [AssetChange] {
        try perform {
            let statement = try db.prepare(AssetChangeStore.select
                                           + " WHERE asset_uuid = ? ORDER BY changed_at, change_uuid")
            try statement.bind([.text(assetUUID.uuidString)])
            var changes: [AssetChange] = []
            while try statement.step() { if let change = AssetChangeStore.change(statement) { changes.append(change) } }
            return changes.sorted(by: AssetChange.isEarlier)
        }
    }

    /// The asset that once had this tag (its tag was changed since), the latest to give it up; nil when none.
    func formerHolder(ofTag tag: String) throws -> RegisterRow? {
        let key = Tags.key(tag)
        let statement = try db.prepare("""
            SELECT asset_uuid, old_value FROM asset_changes WHERE field = 'tag'
            ORDER BY changed_at DESC, change_uuid DESC
            """)
        while try statement.step() {
            if case .text(let old) = statement.value(1), Tags.key(old) == key, let uuid = statement.uuid(0) {
                return try firstRow("WHERE uuid = ?", .text(uuid.uuidString))
            }
        }
        return nil
    }
}
