/// The status of an asset on a given day (SPEC §7). Cases are declared in attention order: the order
/// the register list sorts by, most urgent first.
public enum AssetStatus: String, CaseIterable, Sendable, Codable, Comparable {
    case doNotUse = "do_not_use"
    case overdue
    case remedyBy = "remedy_by"
    case quarantined
    case dueSoon = "due_soon"
    case untested
    case ok
    case withdrawn
    /// Out of service for good: shown only when retired assets are asked for.
    case retired

    public var label: String {
        switch self {
        case .doNotUse: "DO NOT USE"
        case .overdue: "OVERDUE"
        case .remedyBy: "REMEDY BY"
        case .quarantined: "QUARANTINED"
        case .dueSoon: "DUE SOON"
        case .untested: "UNTESTED"
        case .ok: "OK"
        case .withdrawn: "WITHDRAWN"
        case .retired: "RETIRED"
        }
    }

    /// The statuses of assets in service: everything but RETIRED, which no count, chart or report of the
    /// register shows (retired assets have left it).
    public static let active = allCases.filter { $0 != .retired }

    /// Position in attention order (0 = most urgent).
    public var attentionRank: Int { AssetStatus.allCases.firstIndex(of: self)! }

    public static func < (a: AssetStatus, b: AssetStatus) -> Bool { a.attentionRank < b.attentionRank }

    /// Statuses that call for someone to act (UNTESTED: an examination or test is due now).
    public var needsAttention: Bool {
        switch self {
        case .doNotUse, .overdue, .remedyBy, .dueSoon, .untested: true
        default: false
        }
    }
}

/// An asset's status with the dates that explain it.
public struct StatusReport: Hashable, Sendable {
    public var status: AssetStatus
    /// Next thorough examination due, when it can be known; nil for a WITHDRAWN asset.
    public var nextDue: CalendarDate?
    /// The open remedy deadline (passed or not); nil for a WITHDRAWN asset.
    public var remedyDeadline: CalendarDate?
    /// Why the asset is DO NOT USE, most serious first; empty for every other status.
    public var reasons: [StatusReason]
    /// Whose status it is: an electrical asset's reasons and dates speak of tests, not thorough examinations.
    public var kind: AssetKind

    public init(status: AssetStatus, nextDue: CalendarDate?, remedyDeadline: CalendarDate?,
                reasons: [StatusReason] = [], kind: AssetKind = .lifting) {
        self.status = status
        self.nextDue = nextDue
        self.remedyDeadline = remedyDeadline
        self.reasons = reasons
        self.kind = kind
    }

    /// "remedy deadline 2026-11-20 passed": what DO NOT USE says wherever it is shown.
    public var reason: String? { reasons.isEmpty ? nil : reasons.map { $0.text(for: kind) }.joined(separator: "; ") }

    /// The date that matters, the one date the list, `due` and the report show: for DO NOT USE the
    /// earliest of its causes; otherwise the earlier of the open remedy deadline and the next thorough
    /// examination (an OVERDUE examination is always the earlier); none for WITHDRAWN.
    public var keyDate: CalendarDate? {
        if status == .withdrawn || status == .retired { return nil }
        if status == .doNotUse, let cause = reasons.map(\.date).min() { return cause }
        return [remedyDeadline, nextDue].compactMap { $0 }.min()
    }

    /// The date that matters is the remedy deadline (rather than an examination or a dangerous fail).
    public var deadlineMatters: Bool { remedyDeadline != nil && keyDate == remedyDeadline }

    /// What is due next: the one answer the list's NEXT DUE, the history header, `due`, the report and the
    /// calendar give (docs/DECISIONS.md, "What is due on a DO NOT USE item").
    public var due: DueNext { dueNext(by: keyDate) }

    /// What is due of the next examination or test alone, no remedy deadline: what a label, a report's
    /// particulars and the calendar's examination event show.
    public var examinationDue: DueNext { dueNext(by: nextDue) }

    private func dueNext(by date: CalendarDate?) -> DueNext {
        switch status {
        case .withdrawn, .retired: .nothing
        // Not the day it failed nor the periodic date: it may not be used until put right and examined again.
        case .doNotUse: .beforeUse
        case .untested: .now
        default: date.map(DueNext.on) ?? .nothing
        }
    }

    /// What the item needs next: "test", "retest" (a failed test), "thorough examination" or "remedy" (the
    /// remedy deadline is the date that matters).
    public var needs: String {
        if deadlineMatters { return "remedy" }
        if kind == .electrical {
            return reasons.contains { if case .failedDangerous = $0 { true } else { false } } ? "retest" : "test"
        }
        return "thorough examination"
    }
}

/// What is due on an asset (`StatusReport.due`).
public enum DueNext: Hashable, Sendable {
    /// By this date: the next examination or test, or the open remedy deadline when it is earlier.
    case on(CalendarDate)
    /// DO NOT USE: the defect put right and the item examined (an electrical item retested) before any use.
    case beforeUse
    /// UNTESTED: never examined or tested, and no commission date to count an interval from.
    case now
    /// WITHDRAWN or RETIRED: nothing is due.
    case nothing

    public var date: CalendarDate? { if case .on(let date) = self { date } else { nil } }

    /// "2026-12-01", "before use", "now" or "—": the NEXT DUE and DATE columns.
    public var text: String {
        switch self {
        case .on(let date): date.iso
        case .beforeUse: "before use"
        case .now: "now"
        case .nothing: "—"
        }
    }

    /// For JSON: "2026-12-01", "before_use", "now", or nil.
    public var word: String? {
        switch self {
        case .on(let date): date.iso
        case .beforeUse: "before_use"
        case .now: "now"
        case .nothing: nil
        }
    }
}

/// One cause of DO NOT USE, with its date.
public enum StatusReason: Hashable, Sendable {
    /// A *Fail – dangerous* on this day, on any kind of record, with no thorough examination since.
    case failedDangerous(CalendarDate)
    /// A remedy deadline that passed without being signed off.
    case remedyDeadlinePassed(CalendarDate)
    /// The thorough examination was due on this day (named alongside another cause, never alone).
    case examinationOverdue(CalendarDate)

    public var date: CalendarDate {
        switch self {
        case .failedDangerous(let date), .remedyDeadlinePassed(let date), .examinationOverdue(let date): date
        }
    }

    public var text: String { text(for: .lifting) }

    /// The reason in words for an asset of `kind`: a test of an electrical item is not a thorough examination.
    public func text(for kind: AssetKind) -> String {
        if kind == .electrical {
            switch self {
            case .failedDangerous(let date): return "failed its test on \(date.iso), no passing test since"
            case .remedyDeadlinePassed(let date): return "remedy deadline \(date.iso) passed"
            case .examinationOverdue(let date): return "test was due \(date.iso)"
            }
        }
        switch self {
        case .failedDangerous(let date): return "failed dangerous on \(date.iso), not cleared by a thorough examination"
        case .remedyDeadlinePassed(let date): return "remedy deadline \(date.iso) passed"
        case .examinationOverdue(let date): return "thorough examination was due \(date.iso)"
        }
    }
}

extension StatusReport {
    /// What explains the status, in words, for the history headers: why for DO NOT USE; none for
    /// WITHDRAWN; otherwise the dates that matter, the earlier first.
    public var explanation: String {
        if let reason { return "\(reason) · \(needs) due \(due.text)" }
        let none = kind == .electrical ? "test" : "examination"
        if status == .withdrawn { return "withdrawn from service: no \(none) due" }
        if status == .retired { return "retired: no \(none) due; its records are kept" }
        var dates: [String] = []
        if let remedyDeadline { dates.append("remedy by \(remedyDeadline.iso)") }
        if let nextDue { dates.append("next \(kind.dueWhat) due \(nextDue.iso)") }
        if !deadlineMatters { dates.reverse() }
        return dates.isEmpty ? "\(kind.neverDone), no commission date · \(needs) due \(due.text)"
            : dates.joined(separator: " · ")
    }
}
