/// The facts of an asset's inspection history that its status depends on. The register stores these
/// as summary columns (so a list of 100,000 assets needs no aggregate over history) and recomputes
/// them with this same fold in the transaction that inserts a record.
public struct HistorySummary: Hashable, Sendable {
    /// Raised whenever the fold changes meaning; the register refolds summaries stored by an older fold.
    public static let foldVersion = 5

    public var lastThoroughDate: CalendarDate?
    public var lastThoroughResult: InspectionResult?
    /// The date the last thorough examination's examiner set for the next one (nil: not stated, the
    /// interval decides).
    public var nextExaminationBy: CalendarDate?
    public var latestResult: InspectionResult?
    public var latestAction: InspectionAction?
    /// A remedy deadline not yet signed off: no thorough examination since the record that set it, and
    /// no interim inspection since that passed (*Pass* or *Pass with observations*).
    public var openRemedyDeadline: CalendarDate?
    /// The first *Fail – dangerous* with no thorough examination after it (from any kind of record: a
    /// pre-use check that finds danger takes the item out of use just as an examination does).
    public var unresolvedFailDate: CalendarDate?
    /// *Withdraw* or *Quarantine* from a record with no thorough examination after it; a withdrawal
    /// outranks a later quarantine. Only a thorough examination puts the item back into use.
    public var outOfService: InspectionAction?
    /// Records that count (amended records do not).
    public var recordCount: Int

    public var unresolvedFail: Bool { unresolvedFailDate != nil }

    public init(lastThoroughDate: CalendarDate? = nil, lastThoroughResult: InspectionResult? = nil,
                latestResult: InspectionResult? = nil, latestAction: InspectionAction? = nil,
                openRemedyDeadline: CalendarDate? = nil, unresolvedFailDate: CalendarDate? = nil,
                outOfService: InspectionAction? = nil, recordCount: Int = 0, nextExaminationBy: CalendarDate? = nil) {
        self.lastThoroughDate = lastThoroughDate
        self.lastThoroughResult = lastThoroughResult
        self.latestResult = latestResult
        self.latestAction = latestAction
        self.openRemedyDeadline = openRemedyDeadline
        self.unresolvedFailDate = unresolvedFailDate
        self.outOfService = outOfService
        self.recordCount = recordCount
        self.nextExaminationBy = nextExaminationBy
    }

    public static let empty = HistorySummary()

    /// Folds a history in inspection-date order, ties by save time (then row id: `RecordFacts.foldOrder`). A
    /// record that another record amends is left out: the amendment speaks for it; so is a conflicting
    /// amendment that another one outranks (`AmendmentStanding`: the one saved last stands, on every register).
    public init(history: [RecordFacts]) {
        var amended = Set(history.flatMap { ($0.amends.map { [$0] } ?? []) + $0.alsoAmends })
        if AmendmentStanding<Int64>.forks(history.lazy.map(\.amends)) {
            let standing = AmendmentStanding(history.map {
                AmendmentStanding.Entry(key: $0.id, amends: $0.amends, alsoAmends: $0.alsoAmends,
                                        savedAt: $0.savedAt ?? "\u{10FFFF}", uuid: $0.recordUUID?.uuidString ?? "")
            })
            amended.formUnion(standing.outrankedBy.keys)
        }
        let counted = history.filter { !amended.contains($0.id) }
            .sorted(by: RecordFacts.foldOrder)
        self.init()
        for record in counted {
            if record.type.isThorough {
                lastThoroughDate = record.inspectionDate
                lastThoroughResult = record.result
                nextExaminationBy = record.nextExaminationBy
                unresolvedFailDate = nil
                outOfService = nil
            }
            // A repair is signed off by any competent record that passes the item.
            if record.type.isThorough || (record.type == .interim && record.result.passes) {
                openRemedyDeadline = nil
            }
            if record.result == .failDangerous { unresolvedFailDate = unresolvedFailDate ?? record.inspectionDate }
            if let deadline = record.remedyDeadline { openRemedyDeadline = deadline }
            if record.action == .withdraw || (record.action == .quarantine && outOfService != .withdraw) {
                outOfService = record.action
            }
            latestResult = record.result
            latestAction = record.action
        }
        recordCount = counted.count
    }
}

extension InspectionResult {
    /// *Pass* or *Pass with observations*: the item is fit for use.
    public var passes: Bool { self == .pass || self == .passWithObservations }
}
