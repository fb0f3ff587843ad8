import Foundation

/// How the outward views name what falls due on an asset: an item of lifting equipment has a
/// thorough examination (LOLER), an electrical item a test (AS/NZS 3760). One place, so `due`, the calendar,
/// the report and the dashboard say the same.
extension AssetKind {
    /// "thorough examination" or "test".
    public var dueWhat: String { self == .electrical ? "test" : "thorough examination" }

    /// "Thorough examination due" or "Test and tag due": a calendar event's title.
    public var dueTitle: String { self == .electrical ? "Test and tag due" : "Thorough examination due" }

    /// "never examined" or "never tested": what an UNTESTED asset's due date is, where it has none.
    public var neverDone: String { self == .electrical ? "never tested" : "never examined" }

    /// "Last thorough examination" or "Last test".
    public var lastTitle: String { self == .electrical ? "Last test" : "Last thorough examination" }
}

extension DueReport {
    /// What the item needs next (`StatusReport.needs`); `due` prints it beside the date.
    public static func what(_ item: DueItem) -> String { item.report.needs }
}
