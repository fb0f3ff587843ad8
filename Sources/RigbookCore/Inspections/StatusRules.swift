/// The one place that decides an asset's status and due date (SPEC §7 as refined in docs/DECISIONS.md,
/// "Status rules"). Every list, export, report and reminder calls `evaluate`; nothing else interprets history.
public enum StatusRules {
    /// The DUE SOON window for intervals of 6 months or more: due − 30 … due.
    public static let dueSoonDays = 30

    /// Days before the due date that DUE SOON starts: 30 for intervals of 6 months or more, otherwise
    /// a quarter of the interval, counting 365/12 days a month (1 month: 7 days; 3 months: 22).
    public static func dueSoonWindow(intervalMonths: Int) -> Int {
        intervalMonths >= 6 ? dueSoonDays : max(0, intervalMonths) * 365 / 48
    }

    /// Due date = the date the last thorough examination's examiner set (Schedule 1 item 8d); for a record
    /// saved before examiners set one, that examination's date, else the commission date, plus the interval
    /// in months, clamped to the month's end; the earlier of the two when the interval was shortened after the
    /// examiner set a date. Nil when there is no anchor.
    public static func nextDue(intervalMonths: Int, commissioned: CalendarDate?,
                               summary: HistorySummary) -> CalendarDate? {
        let byInterval = (summary.lastThoroughDate ?? commissioned)?.addingMonths(intervalMonths)
        // The examiner's date is never after the interval; an interval shortened since still counts.
        guard let set = summary.nextExaminationBy else { return byInterval }
        return byInterval.map { min($0, set) } ?? set
    }

    /// Status on `today`, in the precedence WITHDRAWN › DO NOT USE › QUARANTINED › OVERDUE ›
    /// REMEDY BY › UNTESTED › DUE SOON › OK.
    public static func evaluate(intervalMonths: Int, commissioned: CalendarDate?,
                                summary: HistorySummary, today: CalendarDate) -> StatusReport {
        let due = nextDue(intervalMonths: intervalMonths, commissioned: commissioned, summary: summary)
        let deadline = summary.openRemedyDeadline
        func report(_ status: AssetStatus, _ reasons: [StatusReason] = []) -> StatusReport {
            StatusReport(status: status, nextDue: due, remedyDeadline: deadline, reasons: reasons)
        }
        // A withdrawn item is out of service: no examination or deadline is due on it.
        if summary.outOfService == .withdraw {
            return StatusReport(status: .withdrawn, nextDue: nil, remedyDeadline: nil)
        }
        var reasons: [StatusReason] = []
        let failed = summary.unresolvedFailDate
            ?? (summary.lastThoroughResult == .failDangerous ? summary.lastThoroughDate : nil)
        if let failed { reasons.append(.failedDangerous(failed)) }
        if let deadline, today > deadline { reasons.append(.remedyDeadlinePassed(deadline)) }
        if !reasons.isEmpty {
            if let due, today > due { reasons.append(.examinationOverdue(due)) }
            return report(.doNotUse, reasons)
        }
        if summary.outOfService == .quarantine { return report(.quarantined) }
        guard let due else { return report(deadline == nil ? .untested : .remedyBy) }
        let daysLeft = today.days(until: due)
        if daysLeft < 0 { return report(.overdue) }
        if deadline != nil { return report(.remedyBy) }
        if daysLeft <= dueSoonWindow(intervalMonths: intervalMonths) { return report(.dueSoon) }
        return report(.ok)
    }

    public static func evaluate(asset: Asset, summary: HistorySummary, today: CalendarDate) -> StatusReport {
        // A retired asset is out of service for good: nothing is due on it, whatever its history says.
        if asset.isRetired {
            return StatusReport(status: .retired, nextDue: nil, remedyDeadline: nil, kind: asset.kind)
        }
        var report = evaluate(intervalMonths: asset.intervalMonths, commissioned: asset.commissioned, summary: summary,
                              today: today)
        report.kind = asset.kind
        return report
    }

    /// The status of an asset from its full history.
    public static func evaluate(asset: Asset, history: [RecordFacts], today: CalendarDate) -> StatusReport {
        evaluate(asset: asset, summary: HistorySummary(history: history), today: today)
    }
}
