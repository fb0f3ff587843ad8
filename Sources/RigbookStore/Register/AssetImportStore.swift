import Foundation
import RigbookCore

extension Register {
    /// Adds the assets of a checked spreadsheet (`AssetImport.parse`) in one transaction, or none: a tag or a
    /// uuid already in the register, or a tag that looks like one there, refuses the whole import, every such
    /// row named (`line 37, tag: …`).
    /// `dryRun` does all of it and rolls back. Returns how many assets were (or would be) added.
    @discardableResult
    public func importAssets(_ rows: [AssetImport.Row], dryRun: Bool = false) throws(RegisterError) -> Int {
        try perform { try db.withRoomForLargeWrite(cacheMiB: 64) {
            try db.transaction(rollingBack: dryRun) {
                    // Checked under the write lock: two imports at once cannot both add one tag.
                    var tags = TakenTags<Void>()
                    var uuids: [UUID: String] = [:]
                    let existing = try db.prepare("SELECT tag, uuid FROM assets")
                    while try existing.step() {
                        tags.insert(existing.text(0), holder: ())
                        if let uuid = existing.uuid(1) { uuids[uuid] = existing.text(0) }
                    }
                    var problems: [String] = []
                    for row in rows {
                        // The same tag, or one that looks like it (`ЅL-0042` beside `SL-0042`).
                        if let (clash, _) = tags.clash(with: row.asset.tag) {
                            problems.append("line \(row.line), tag: \(clash.refusal(of: row.asset.tag))")
                        }
                        if let held = uuids[row.asset.uuid] {
                            problems.append("line \(row.line), uuid: this uuid is already the register's \(held)")
                        }
                    }
                    guard problems.isEmpty else { throw RegisterError.importRefused(problems) }
                    let statement = try db.prepare(AssetColumns.insertSQL)
                    try HashChain.holdingHead(db) {
                        for row in rows {
                            let problems = row.asset.problems()
                            guard problems.isEmpty else {
                                throw RegisterError.importRefused(problems.map { "line \(row.line): \($0)" })
                            }
                            try insertAsset(statement, row.asset, summary: .empty)
                        }
                    }
                    return rows.count
                }
        } }
    }
}
