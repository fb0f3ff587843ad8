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
        }
    }

    /// Position in attention order (0 = most urgent).
    public var attentionRank: Int { AssetStatus.allCases.firstIndex(of: self)! }

    public static func < (a: AssetStatus, b: AssetStatus) -> Bool { a.attentionRank < b.attentionRank }

    /// Statuses that call for someone to act.
    public var needsAttention: Bool {
        switch self {
        case .doNotUse, .overdue, .remedyBy, .dueSoon: true
        default: false
        }
    }
}

/// An asset's status with the dates that explain it.
public struct StatusReport: Hashable, Sendable {
    public var status: AssetStatus
    /// Next thorough examination due, when it can be known.
    public var nextDue: CalendarDate?
    /// The open remedy deadline, for REMEDY BY and for a DO NOT USE caused by a missed deadline.
    public var remedyDeadline: CalendarDate?

    /// The date that matters is the remedy deadline (rather than the next thorough examination).
    public var deadlineMatters: Bool { status != .withdrawn && remedyDeadline != nil && keyDate == remedyDeadline }

    /// The date that matters, the one date the list, `due`, the calendar and the report show: the earlier
    /// of the open remedy deadline and the next thorough examination (an OVERDUE examination is always
    /// the earlier).
    public var keyDate: CalendarDate? { [remedyDeadline, nextDue].compactMap { $0 }.min() }
}
