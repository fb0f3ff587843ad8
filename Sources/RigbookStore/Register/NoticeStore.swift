import Foundation
import RigbookCore

/// Reg 10 notices: append-only entries of the hash chain on records. The newest notice of a
/// record and duty says where the duty stands.
enum NoticeStore {
    static let select = """
        SELECT notice_uuid, record_uuid, duty, recipient, done_on, serious_risk, recorded_at, operator, entry_hash
        FROM notices
        """

    /// Appends `notice` onto the chain, stamped. Only inside a write transaction.
    static func append(_ db: Database, _ notice: Notice, stamp: SaveStamp) throws {
        try HashChain.append(db, HashChain.notice, [
            .text(notice.uuid.uuidString), .text(notice.recordUUID.uuidString), .text(notice.duty.rawValue),
            .text(notice.recipient.trimmingCharacters(in: .whitespaces)), .date(notice.doneOn),
            notice.seriousRisk.map(SQLValue.bool) ?? .null, .text(stamp.enteredAt), .text(stamp.operatorName),
        ])
    }

    /// The notices a thorough examination opens when it is saved: the report to the employer (and to a
    /// lessor) not yet sent, and for a defect who was told and, with a serious risk, the copy to the
    /// enforcing authority. A defect saved without answers is a notice to the employer not yet given.
    static func opened(by record: ValidatedInspection, recordUUID: UUID, particulars: ReportParticulars?,
                       answers: DefectNotices?) -> [Notice] {
        guard record.values.inspectionType.isThorough else { return [] }
        var notices: [Notice] = []
        if DefectNotices.required(for: record.result, type: record.values.inspectionType) {
            if let answers {
                notices.append(Notice(recordUUID: recordUUID, duty: .employerTold, recipient: answers.employerContact,
                                      doneOn: answers.employerToldOn, seriousRisk: answers.seriousRisk))
                if answers.seriousRisk {
                    notices.append(Notice(recordUUID: recordUUID, duty: .enforcingAuthority,
                                          doneOn: answers.authoritySentOn))
                }
            } else {
                notices.append(Notice(recordUUID: recordUUID, duty: .employerTold, doneOn: nil))
            }
        }
        notices.append(Notice(recordUUID: recordUUID, duty: .reportToEmployer,
                              recipient: particulars?.employer.name ?? "", doneOn: nil))
        if let lessor = particulars?.asset.lessor, !lessor.isEmpty {
            notices.append(Notice(recordUUID: recordUUID, duty: .reportToLessor, recipient: lessor, doneOn: nil))
        }
        return notices
    }

    static func notice(_ s: Statement) -> Notice {
        Notice(uuid: s.uuid(0) ?? UUID(), recordUUID: s.uuid(1) ?? UUID(),
               duty: NoticeDuty(rawValue: s.text(2)) ?? .reportToEmployer, recipient: s.text(3), doneOn: s.date(4),
               seriousRisk: s.isNull(5) ? nil : s.int(5) != 0, recordedAt: s.text(6), operatorName: s.text(7),
               entryHash: s.optionalText(8))
    }
}

/// A duty not yet done, with the record it is on.
public struct OpenNotice: Sendable, Hashable {
    public var notice: Notice
    public var record: StoredInspection
    public var assetTag: String
}

extension Register {
    /// Every notice on a record, oldest first.
    public func notices(recordUUID: UUID) throws(RegisterError) -> [Notice] {
        try perform {
            let statement = try db.prepare(NoticeStore.select + " WHERE record_uuid = ? ORDER BY id")
            try statement.bind([.text(recordUUID.uuidString)])
            var notices: [Notice] = []
            while try statement.step() { notices.append(NoticeStore.notice(statement)) }
            return notices
        }
    }

    /// Duties whose newest notice says not yet done, oldest record first; a record an amendment superseded has
    /// none left (its amendment is the report that stands, with duties of its own).
    public func openNotices() throws(RegisterError) -> [OpenNotice] {
        try perform {
            let statement = try db.prepare(NoticeStore.select + """
                 WHERE id IN (SELECT max(id) FROM notices GROUP BY record_uuid, duty) AND done_on IS NULL ORDER BY id
                """)
            var open: [Notice] = []
            while try statement.step() { open.append(NoticeStore.notice(statement)) }
            return try open.compactMap { notice -> OpenNotice? in
                guard let record = try inspection(uuid: notice.recordUUID), record.counts,
                      let asset = try asset(uuid: record.assetUUID) else { return nil }
                return OpenNotice(notice: notice, record: record, assetTag: asset.asset.tag)
            }
        }
    }

    /// Records that a duty on a record was done (or, with no date, is still to do), checked against the record.
    public func addNotice(_ notice: Notice, today: CalendarDate, stamp: SaveStamp = SaveStamp()) throws(RegisterError) {
        try perform {
            try db.transaction {
                guard let record = try inspection(uuid: notice.recordUUID) else {
                    let uuid = notice.recordUUID.uuidString.lowercased()
                    throw RegisterError.invalidNotice(["No record \(uuid) in the register."])
                }
                guard record.values.inspectionType.isThorough else {
                    throw RegisterError.invalidNotice(["Record #\(record.id) is not a thorough examination: "
                                                       + "reg 10 notices are for thorough examinations."])
                }
                // Only a duty the record's save opened: a pass has no defect to report, a hired item alone a lessor.
                let opened = try db.withKept("SELECT 1 FROM notices WHERE record_uuid = ? AND duty = ?",
                                             [.text(notice.recordUUID.uuidString), .text(notice.duty.rawValue)]) {
                    try $0.step()
                }
                guard opened else {
                    throw RegisterError.invalidNotice(["Record #\(record.id) has no duty “\(notice.duty.label)”: "
                        + "its save did not open one (a defect opens the employer's and, with a serious risk, the "
                        + "enforcing authority's; a hired item the lessor's)."])
                }
                let date = CalendarDate(iso: record.values.inspectionDate) ?? today
                let problems = notice.problems(recordDate: date, today: today)
                guard problems.isEmpty else { throw RegisterError.invalidNotice(problems) }
                try NoticeStore.append(db, notice, stamp: stamp)
            }
        }
    }

    public func inspection(uuid: UUID) throws(RegisterError) -> StoredInspection? {
        try perform {
            let statement = try db.prepare(
                "SELECT \(InspectionColumns.select) FROM \(InspectionColumns.from) WHERE i.record_uuid = ?")
            try statement.bind([.text(uuid.uuidString)])
            return try statement.step() ? InspectionColumns.record(statement) : nil
        }
    }
}
