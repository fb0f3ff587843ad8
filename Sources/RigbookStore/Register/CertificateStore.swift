import Foundation
import RigbookCore

/// What certificates ask of the register: a record by its report number, and the thorough
/// examinations made at one site in a range of dates.
extension Register {
    /// The record that took this report number (`7F3A91C2-000123`, any letter case), or nil.
    public func inspection(reportNumber: String) throws(RegisterError) -> StoredInspection? {
        try perform {
            let statement = try db.prepare(
                "SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from) WHERE i.report_number = ?")
            try statement.bind([.text(reportNumber.uppercased())])
            guard try statement.step() else { return nil }
            let record = InspectionColumns.record(statement)
            return try withAttachments(record.taking(standingOf: standingOfForkedChains()[record.recordUUID]))
        }
    }

    /// The thorough examinations that still count (none amended them), dated `from` through `through`, made at
    /// the site `siteUUID`: a record saved with particulars names its site itself; for one saved before them,
    /// the asset's site in the particulars in force stands in. In date, then save order.
    public func thoroughExaminations(atSite siteUUID: UUID, from: CalendarDate,
                                     through: CalendarDate) throws(RegisterError) -> [StoredInspection] {
        let current = try particulars()
        return try perform {
            let thorough = InspectionType.allCases.filter(\.isThorough).map { "'\($0.rawValue)'" }
                .joined(separator: ", ")
            let statement = try db.prepare("""
                SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from)
                WHERE i.inspection_type IN (\(thorough)) AND i.inspection_date BETWEEN ? AND ? AND s.id IS NULL
                ORDER BY i.inspection_date, i.id
                """)
            try statement.bind([.text(from.iso), .text(through.iso)])
            var records: [StoredInspection] = []
            while try statement.step() {
                let record = InspectionColumns.record(statement)
                let site = record.particulars?.site.uuid ?? current.asset(record.assetUUID).siteUUID
                if site == siteUUID { records.append(record) }
            }
            return try countingOnly(records).map(withAttachments)
        }
    }
}
