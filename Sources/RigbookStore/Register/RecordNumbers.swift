import Foundation

extension RegisterSchema {
    /// The records whose number is not the one they came in with (`record_numbers`), the records that came in and
    /// are gone, and those whose amends column names another record than the uuid it amends: a sentence each.
    /// Numbers swapped behind Rigbook's back name both records.
    static func numberProblems(_ db: Database) throws -> [String] {
        // A register this build has not opened to write yet has no numbers kept: nothing to compare.
        guard try db.scalar("SELECT 1 FROM sqlite_master WHERE name = 'record_numbers'") != nil else { return [] }
        var problems: [String] = []
        for (kind, table, uuid, shown) in [("inspection", "inspections", "record_uuid", "record"),
                                           ("electrical_test", "electrical_tests", "test_uuid", "test")] {
            // Looked up by number (the table's key, appended to in order as records come in); the number a record
            // came in with is looked for only where it is not its own, and only for the first thousand.
            let statement = try db.prepare("""
                SELECT r.id, lower(r.\(uuid)), (SELECT n.number FROM record_numbers n
                                                WHERE n.record_kind = '\(kind)' AND n.record_uuid = r.\(uuid))
                FROM \(table) r LEFT JOIN record_numbers kept ON kept.record_kind = '\(kind)' AND kept.number = r.id
                WHERE kept.record_uuid IS NOT r.\(uuid) ORDER BY r.id LIMIT 1000
                """)
            while try statement.step() {
                let name = "\(shown) #\(statement.int64(0)) (\(statement.text(1)))"
                problems.append(statement.isNull(2)
                    ? "\(name) has no number kept from when it came in: it was put in behind Rigbook's back"
                    : "\(name) came in as #\(statement.int64(2)): its number was changed behind Rigbook's back")
            }
        }
        let removed = try db.prepare("""
            SELECT n.record_kind, n.number, lower(n.record_uuid) FROM record_numbers n
            WHERE NOT EXISTS (SELECT 1 FROM inspections WHERE record_uuid = n.record_uuid)
              AND NOT EXISTS (SELECT 1 FROM electrical_tests WHERE test_uuid = n.record_uuid)
            ORDER BY n.record_kind DESC, n.number
            """)
        while try removed.step() {
            let shown = removed.text(0) == "inspection" ? "record" : "test"
            problems.append("\(shown) #\(removed.int64(1)) (\(removed.text(2))) came in but is no longer in the"
                            + " register: it was removed behind Rigbook's back")
        }
        let amends = try db.prepare("""
            SELECT i.id, a.id, i.amends FROM inspections i LEFT JOIN inspections a ON a.record_uuid = i.amends_uuid
            WHERE i.amends IS NOT a.id ORDER BY i.id
            """)
        while try amends.step() {
            let amended = amends.isNull(1) ? "no record" : "#\(amends.int64(1))"
            let said = amends.isNull(2) ? "none" : "#\(amends.int64(2))"
            problems.append("record #\(amends.int64(0)) amends \(amended) but says it amends \(said):"
                            + " its amends column was changed behind Rigbook's back")
        }
        return problems
    }
}
