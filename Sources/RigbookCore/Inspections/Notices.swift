import Foundation

/// A duty LOLER reg 10 puts on the examiner after a thorough examination. Each is tracked by
/// notices: append-only entries of the register's hash chain, never records and never amendments. The
/// newest notice of a record and duty says where it stands.
public enum NoticeDuty: String, CaseIterable, Sendable, Codable {
    /// Reg 10(1)(a): a defect is reported to the employer forthwith: who was told, and when.
    case employerTold = "employer_told"
    /// Reg 10(1)(c): a copy to the relevant enforcing authority, where there is an existing or imminent risk
    /// of serious personal injury.
    case enforcingAuthority = "enforcing_authority"
    /// Reg 10(1)(b): the report goes to the employer.
    case reportToEmployer = "report_to_employer"
    /// Reg 10(1)(b)(ii): and to whoever the equipment was hired or leased from.
    case reportToLessor = "report_to_lessor"

    public var label: String {
        switch self {
        case .employerTold: "Defect reported to the employer (reg 10(1)(a))"
        case .enforcingAuthority: "Copy to the enforcing authority (reg 10(1)(c))"
        case .reportToEmployer: "Report sent to the employer (reg 10(1)(b))"
        case .reportToLessor: "Report sent to the lessor (reg 10(1)(b)(ii))"
        }
    }
}

/// One notice: a duty done (with the date, and to whom) or not yet done.
public struct Notice: Hashable, Sendable {
    public var uuid: UUID
    public var recordUUID: UUID
    public var duty: NoticeDuty
    /// Who was told or sent it (a person at the employer, the authority's office, the lessor).
    public var recipient: String
    /// When it was done; nil: not yet.
    public var doneOn: CalendarDate?
    /// For `employerTold`: whether the defect is an existing or imminent risk of serious personal injury.
    public var seriousRisk: Bool?
    /// When the notice was entered and by whom (set by the register).
    public var recordedAt: String
    public var operatorName: String
    public var entryHash: String?

    public init(uuid: UUID = .timeOrdered(), recordUUID: UUID, duty: NoticeDuty, recipient: String = "",
                doneOn: CalendarDate?, seriousRisk: Bool? = nil, recordedAt: String = "", operatorName: String = "",
                entryHash: String? = nil) {
        self.uuid = uuid
        self.recordUUID = recordUUID
        self.duty = duty
        self.recipient = recipient
        self.doneOn = doneOn
        self.seriousRisk = seriousRisk
        self.recordedAt = recordedAt
        self.operatorName = operatorName
        self.entryHash = entryHash
    }

    public var isDone: Bool { doneOn != nil }

    /// The day it was entered, by the clock today is read from; nil when its stamp is unreadable.
    public var enteredOn: CalendarDate? { CalendarDate(dayOfTimestamp: recordedAt) }

    /// Why this notice cannot be kept, as sentences.
    public func problems(recordDate: CalendarDate, today: CalendarDate) -> [String] {
        var problems: [String] = []
        if TextRules.containsControlCharacters(recipient) { problems.append("Who was told holds control characters.") }
        if let hidden = Tags.invisibleCharacterProblem(recipient, what: "name of who was told") {
            problems.append(hidden)
        }
        if recipient.count > Asset.maxTextLength {
            problems.append("Who was told is longer than \(Asset.maxTextLength) characters.")
        }
        if duty == .employerTold, recipient.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("Say who at the employer was told of the defect.")
        }
        if let doneOn {
            if doneOn > today { problems.append("The date \(doneOn.iso) is in the future.") }
            if doneOn < recordDate {
                problems.append("The date \(doneOn.iso) is before the examination (\(recordDate.iso)).")
            }
        }
        return problems
    }
}

/// The answers a defect asks for at save (reg 10), which become notices with the record.
/// Reg 10's questions as far as they were answered, as typed (dates still text): kept in the form's draft, so a
/// crash or an Esc back to the form loses none of them.
public struct DefectNoticeAnswers: Hashable, Sendable, Codable {
    public var contact: String
    public var toldOn: String
    public var seriousRisk: Bool
    public var authoritySentOn: String

    public init(contact: String = "", toldOn: String, seriousRisk: Bool = false, authoritySentOn: String = "") {
        self.contact = contact
        self.toldOn = toldOn
        self.seriousRisk = seriousRisk
        self.authoritySentOn = authoritySentOn
    }

    /// What a record's notices (oldest first) say now, to offer again when it is amended: each duty's newest
    /// entry. Nil when its save opened no notice to the employer.
    public init?(notices: [Notice]) {
        guard let told = notices.last(where: { $0.duty == .employerTold }) else { return nil }
        let authority = notices.last { $0.duty == .enforcingAuthority }
        self.init(contact: told.recipient, toldOn: told.doneOn?.iso ?? "",
                  seriousRisk: told.seriousRisk ?? (authority != nil), authoritySentOn: authority?.doneOn?.iso ?? "")
    }

    enum CodingKeys: String, CodingKey {
        case contact
        case toldOn = "told_on"
        case seriousRisk = "serious_risk"
        case authoritySentOn = "authority_sent_on"
    }
}

public struct DefectNotices: Hashable, Sendable {
    /// Who at the employer was told, and when.
    public var employerContact: String
    public var employerToldOn: CalendarDate
    /// An existing or imminent risk of serious personal injury.
    public var seriousRisk: Bool
    /// When a copy went to the enforcing authority; nil: not yet sent (only with a serious risk).
    public var authoritySentOn: CalendarDate?

    public init(employerContact: String, employerToldOn: CalendarDate, seriousRisk: Bool,
                authoritySentOn: CalendarDate? = nil) {
        self.employerContact = employerContact
        self.employerToldOn = employerToldOn
        self.seriousRisk = seriousRisk
        self.authoritySentOn = authoritySentOn
    }

    /// Whether a record with this result asks for them: any defect (reg 10(1)(a)).
    public static func required(for result: InspectionResult?, type: InspectionType) -> Bool {
        type.isThorough && (result == .defectToBeRemedied || result == .failDangerous)
    }
}
