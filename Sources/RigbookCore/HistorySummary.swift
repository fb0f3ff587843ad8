/// The facts of an asset's inspection history that its status depends on. The register stores these
/// as summary columns (so a list of 100,000 assets needs no aggregate over history) and recomputes
/// them with this same fold in the transaction that inserts a record.
public struct HistorySummary: Hashable, Sendable {
    public var lastThoroughDate: CalendarDate?
    public var lastThoroughResult: InspectionResult?
    public var latestResult: InspectionResult?
    public var latestAction: InspectionAction?
    /// A remedy deadline with no thorough examination after the record that set it.
    public var openRemedyDeadline: CalendarDate?
    /// A *Fail – dangerous* with no thorough examination after it (from any kind of record: a pre-use
    /// check that finds danger takes the item out of use just as an examination does).
    public var unresolvedFail: Bool
    /// Records that count (amended records do not).
    public var recordCount: Int

    public init(lastThoroughDate: CalendarDate? = nil, lastThoroughResult: InspectionResult? = nil,
                latestResult: InspectionResult? = nil, latestAction: InspectionAction? = nil,
                openRemedyDeadline: CalendarDate? = nil, unresolvedFail: Bool = false, recordCount: Int = 0) {
        self.lastThoroughDate = lastThoroughDate
        self.lastThoroughResult = lastThoroughResult
        self.latestResult = latestResult
        self.latestAction = latestAction
        self.openRemedyDeadline = openRemedyDeadline
        self.unresolvedFail = unresolvedFail
        self.recordCount = recordCount
    }

    public static let empty = HistorySummary()

    /// Folds a history in inspection-date order (ties by record id, i.e. save order). A record that
    /// another record amends is left out: the amendment speaks for it.
    public init(history: [RecordFacts]) {
        let amended = Set(history.compactMap(\.amends))
        let counted = history.filter { !amended.contains($0.id) }
            .sorted { ($0.inspectionDate, $0.id) < ($1.inspectionDate, $1.id) }
        self.init()
        for record in counted {
            if record.type.isThorough {
                lastThoroughDate = record.inspectionDate
                lastThoroughResult = record.result
                openRemedyDeadline = nil
                unresolvedFail = false
            }
            if record.result == .failDangerous { unresolvedFail = true }
            if let deadline = record.remedyDeadline { openRemedyDeadline = deadline }
            latestResult = record.result
            latestAction = record.action
        }
        recordCount = counted.count
    }
}
