/// The one place that decides an asset's status and due date (SPEC §7). Every list, export, report
/// and reminder calls `evaluate`; nothing else interprets history.
public enum StatusRules {
    /// DUE SOON covers the due date and the 30 calendar days before it: due − 30 … due.
    public static let dueSoonDays = 30

    /// Due date = last thorough examination, else commission date, plus the interval in months,
    /// clamped to the month's end. Nil when neither anchor exists.
    public static func nextDue(intervalMonths: Int, commissioned: CalendarDate?,
                               summary: HistorySummary) -> CalendarDate? {
        (summary.lastThoroughDate ?? commissioned)?.addingMonths(intervalMonths)
    }

    /// Status on `today`, in the precedence WITHDRAWN › DO NOT USE › QUARANTINED › REMEDY BY ›
    /// UNTESTED › OVERDUE › DUE SOON › OK.
    public static func evaluate(intervalMonths: Int, commissioned: CalendarDate?,
                                summary: HistorySummary, today: CalendarDate) -> StatusReport {
        let due = nextDue(intervalMonths: intervalMonths, commissioned: commissioned, summary: summary)
        let deadline = summary.openRemedyDeadline
        func report(_ status: AssetStatus) -> StatusReport {
            StatusReport(status: status, nextDue: due, remedyDeadline: deadline)
        }
        if summary.outOfService == .withdraw { return report(.withdrawn) }
        if summary.lastThoroughResult == .failDangerous || summary.unresolvedFail { return report(.doNotUse) }
        if let deadline, today > deadline { return report(.doNotUse) }
        if summary.outOfService == .quarantine { return report(.quarantined) }
        if deadline != nil { return report(.remedyBy) }
        guard let due else { return report(.untested) }
        let daysLeft = today.days(until: due)
        if daysLeft < 0 { return report(.overdue) }
        if daysLeft <= dueSoonDays { return report(.dueSoon) }
        return report(.ok)
    }

    public static func evaluate(asset: Asset, summary: HistorySummary, today: CalendarDate) -> StatusReport {
        evaluate(intervalMonths: asset.intervalMonths, commissioned: asset.commissioned, summary: summary, today: today)
    }

    /// The status of an asset from its full history.
    public static func evaluate(asset: Asset, history: [RecordFacts], today: CalendarDate) -> StatusReport {
        evaluate(asset: asset, summary: HistorySummary(history: history), today: today)
    }
}
