import Foundation

/// One asset as the register list shows it: the asset, its stored history summary and due date.
public struct RegisterRow: Sendable, Hashable {
    public var asset: Asset
    public var summary: HistorySummary
    public var hasDraft: Bool

    public init(asset: Asset, summary: HistorySummary, hasDraft: Bool = false) {
        self.asset = asset
        self.summary = summary
        self.hasDraft = hasDraft
    }

    public func status(on today: CalendarDate) -> StatusReport {
        StatusRules.evaluate(asset: asset, summary: summary, today: today)
    }
}

/// A saved inspection record, as read back from the register. A record is known by its uuid; the
/// integer ids (its own, the one it amends, the one that supersedes it) are this register's row ids,
/// for people to read.
public struct StoredInspection: Sendable, Hashable {
    public var id: Int64
    /// The record's lasting identity, made when it was saved.
    public var recordUUID: UUID
    public var assetUUID: UUID
    /// The form session it was typed in (stored in the `draft_id` column).
    public var sessionID: String
    /// The record this one amends (its id here, for display; `amendsUUID` is what the register keeps).
    public var amends: Int64?
    public var amendsUUID: UUID?
    /// The record that amends this one, if any: this one then no longer counts.
    public var supersededBy: Int64?
    public var supersededByUUID: UUID?
    /// A conflicting amendment that does not stand (`AmendmentStanding`): the one of its chain's live heads
    /// that stands in its place. It is kept and shown, and does not count, until an amendment settles them.
    public var outrankedBy: Int64?
    public var outrankedByUUID: UUID?
    /// The other live amendments this amendment superseded besides `amends`: their uuids, and
    /// their ids here where they are in this register.
    public var alsoAmendsUUIDs: [UUID] = []
    public var alsoAmends: [Int64] = []
    public var values: InspectionValues
    /// ISO 8601 UTC timestamp of the commit.
    public var savedAt: String
    public var appVersion: String
    public var operatorName: String
    /// The asset's WLL and location when the record was saved.
    public var assetWLLKg: Double
    public var assetLocation: String
    /// A thorough examination's report number (`7F3A91C2-000123`); nil for other records and for records
    /// saved before report numbers.
    public var reportNumber: String?
    /// The record's SHA-256 in the register's hash chain (docs/FORMATS.md).
    public var recordHash: String?
    /// The particulars copied at save (Schedule 1 items 1, 2, 4, 5, 9); nil for records saved before them.
    public var particulars: ReportParticulars?
    /// The visit of a batch inspection that saved this record with others; nil otherwise.
    public var visitUUID: UUID?
    /// Who signed the record, with which key; nil for a record saved before keys.
    public var signedBy: SignedBy?

    public init(id: Int64, recordUUID: UUID, assetUUID: UUID, sessionID: String, amends: Int64?,
                amendsUUID: UUID? = nil, supersededBy: Int64? = nil, supersededByUUID: UUID? = nil,
                values: InspectionValues, savedAt: String, appVersion: String, operatorName: String,
                assetWLLKg: Double, assetLocation: String, reportNumber: String? = nil, recordHash: String? = nil,
                particulars: ReportParticulars? = nil) {
        self.id = id
        self.recordUUID = recordUUID
        self.assetUUID = assetUUID
        self.sessionID = sessionID
        self.amends = amends
        self.amendsUUID = amendsUUID
        self.supersededBy = supersededBy
        self.supersededByUUID = supersededByUUID
        self.values = values
        self.savedAt = savedAt
        self.appVersion = appVersion
        self.operatorName = operatorName
        self.assetWLLKg = assetWLLKg
        self.assetLocation = assetLocation
        self.reportNumber = reportNumber
        self.recordHash = recordHash
        self.particulars = particulars
    }

    /// The newest record of this record's chain of amendments in `history`: follows "superseded by" from
    /// this record's entry there (itself when nothing amends it).
    public func newestOfChain(in history: [StoredInspection]) -> StoredInspection {
        let byUUID = Dictionary(history.map { ($0.recordUUID, $0) }, uniquingKeysWith: { first, _ in first })
        var newest = byUUID[recordUUID] ?? self
        var seen: Set<UUID> = [newest.recordUUID]
        while let next = newest.supersededByUUID.flatMap({ byUUID[$0] }), seen.insert(next.recordUUID).inserted {
            newest = next
        }
        return newest
    }

    /// Whether it counts for status, reports and certificates: nothing supersedes or outranks it.
    public var counts: Bool { supersededBy == nil && outrankedBy == nil }

    /// The records of whole histories with conflicting amendments settled for reading (`AmendmentStanding`):
    /// the outranked heads say which head stands, and a record several records supersede names the one leading
    /// to it, whatever the row ids (which differ between registers). Unchanged when no chain forks.
    public static func withStanding(_ records: [StoredInspection]) -> [StoredInspection] {
        guard AmendmentStanding<UUID>.forks(records.lazy.map(\.amendsUUID)) else { return records }
        let standing = AmendmentStanding(records.map {
            AmendmentStanding.Entry(key: $0.recordUUID, amends: $0.amendsUUID, alsoAmends: $0.alsoAmendsUUIDs,
                                    savedAt: $0.savedAt, uuid: $0.recordUUID.uuidString)
        })
        guard !standing.isEmpty else { return records }
        let ids = Dictionary(records.map { ($0.recordUUID, $0.id) }, uniquingKeysWith: { first, _ in first })
        return records.map { record in
            var record = record
            if let by = standing.supersededBy[record.recordUUID] {
                record.supersededByUUID = by
                record.supersededBy = ids[by]
            }
            if let by = standing.outrankedBy[record.recordUUID] {
                record.outrankedByUUID = by
                record.outrankedBy = ids[by]
            }
            return record
        }
    }

    /// For a conflicting amendment that does not stand, the words that say which does (`#15 stands`); nil for
    /// every other record. The one way both histories (the full-screen and `rigbook history`) say it: the
    /// record that stands amends the same record, so it does not supersede this one.
    public var standsInstead: String? { outrankedBy.map { "#\($0) stands" } }

    /// The standing `settled` (the same record, read through `withStanding`) gives it.
    public func taking(standingOf settled: StoredInspection?) -> StoredInspection {
        guard let settled else { return self }
        var record = self
        record.supersededBy = settled.supersededBy
        record.supersededByUUID = settled.supersededByUUID
        record.outrankedBy = settled.outrankedBy
        record.outrankedByUUID = settled.outrankedByUUID
        return record
    }

    /// Stored records passed the gate, so result and date are always present.
    public var facts: RecordFacts {
        RecordFacts(id: id, type: values.inspectionType, result: values.result ?? .pass, action: values.action,
                    remedyDeadline: values.remedyDeadlineSet ? CalendarDate(iso: values.remedyDeadline) : nil,
                    inspectionDate: CalendarDate(iso: values.inspectionDate) ?? CalendarDate(dayNumber: 0),
                    amends: amends, nextExaminationBy: CalendarDate(iso: values.nextExaminationBy), savedAt: savedAt)
            .alsoAmending(alsoAmends).known(as: recordUUID)
    }

    /// What it amends, for `AmendmentChains`.
    public var amendmentLink: AmendmentLink {
        AmendmentLink(record: recordUUID, amends: amendsUUID, alsoAmends: alsoAmendsUUIDs)
    }
}

/// A chain of amendments with two or more live heads (amendments of one record made on two machines, then
/// merged): the asset's *conflicting amendments*, until an amendment of either head supersedes them all.
public struct ConflictingAmendments: Sendable {
    /// The record they all amend.
    public var original: StoredInspection
    /// The live amendments, by id.
    public var heads: [StoredInspection]

    /// The asset's conflicting amendments among its whole history (records read with their standing), chains
    /// in the order of their first record.
    public static func among(_ records: [StoredInspection]) -> [ConflictingAmendments] {
        let byUUID = Dictionary(records.map { ($0.recordUUID, $0) }, uniquingKeysWith: { first, _ in first })
        let links = records.sorted { $0.id < $1.id }.map(\.amendmentLink)
        return AmendmentChains.conflicts(links).compactMap { chain in
            let heads = chain.heads.compactMap { byUUID[$0] }.sorted { $0.id < $1.id }
            return byUUID[chain.original].map { ConflictingAmendments(original: $0, heads: heads) }
        }
    }

    /// The head that stands meanwhile (the one saved last), if the records were read with their standing.
    public var standing: StoredInspection? { heads.first { $0.outrankedBy == nil } }

    /// The warning both histories head the asset with (`⚠ #14 and #15 both amend #4: A on one supersedes
    /// both`). Short enough for 80 columns with record numbers of five digits: the numbers come first.
    public var warning: String {
        let numbers = heads.map { "#\($0.id)" }
        let both = numbers.count == 2 ? "both" : "all"
        return "⚠ " + numbers.joined(separator: numbers.count == 2 ? " and " : ", ")
            + " \(both) amend #\(original.id): A on one supersedes \(both)"
    }
}

public enum RigbookVersion {
    public static let current = "0.1.0"
}
