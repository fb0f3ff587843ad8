import Foundation

/// The register's particulars (issue 12 §1, SPEC §10 items 1, 2, 5 and 9): who the examinations are made
/// for and where, who makes them, and what an asset's report needs beyond its 12 fields. Each is kept in the
/// register as an append-only history of versions (`ParticularsChange`); these are the versions in force.

/// An employer (a client): whom an examination is made for (Schedule 1 item 1).
public struct Employer: Codable, Hashable, Sendable {
    public var uuid: UUID
    public var name: String
    public var address: String

    public init(uuid: UUID = UUID(), name: String, address: String = "") {
        self.uuid = uuid
        self.name = name
        self.address = address
    }
}

/// Premises of an employer: where an asset is and an examination is made (Schedule 1 item 2).
public struct Site: Codable, Hashable, Sendable {
    public var uuid: UUID
    public var employerUUID: UUID
    public var name: String
    public var address: String

    public init(uuid: UUID = UUID(), employerUUID: UUID, name: String, address: String = "") {
        self.uuid = uuid
        self.employerUUID = employerUUID
        self.name = name
        self.address = address
    }

    enum CodingKeys: String, CodingKey {
        case uuid, name, address
        case employerUUID = "employer_uuid"
    }
}

/// The organisation that employs the examiners (Schedule 1 item 9: the employer's name and address).
public struct ExaminingOrganisation: Codable, Hashable, Sendable {
    public var name: String
    public var address: String

    public init(name: String = "", address: String = "") {
        self.name = name
        self.address = address
    }
}

/// A competent person who makes reports (Schedule 1 item 9).
public struct Examiner: Codable, Hashable, Sendable {
    public var uuid: UUID
    public var name: String
    /// Qualification or certificate number.
    public var qualification: String
    /// Self-employed examiners give their own address; employed ones the organisation's.
    public var selfEmployed: Bool
    public var address: String

    public init(uuid: UUID = UUID(), name: String, qualification: String = "", selfEmployed: Bool = false,
                address: String = "") {
        self.uuid = uuid
        self.name = name
        self.qualification = qualification
        self.selfEmployed = selfEmployed
        self.address = address
    }

    enum CodingKeys: String, CodingKey {
        case uuid, name, qualification, address
        case selfEmployed = "self_employed"
    }
}

/// What one asset's report needs beyond the asset itself, all optional but the site.
public struct AssetParticulars: Codable, Hashable, Sendable {
    public var assetUUID: UUID
    public var siteUUID: UUID
    /// The owner or lessor it was hired from: they get a copy of a report of a defect (reg 10(1)(b)(ii)).
    public var lessor: String
    /// SWLs per configuration, where there are several (Schedule 1 item 5), e.g. "2 legs 45°: 3.2 t".
    public var swlConfigurations: String
    /// An EC/UK declaration of conformity, which reg 9(1) allows in place of an examination before first use.
    public var declarationReference: String
    public var declarationDate: String

    public init(assetUUID: UUID, siteUUID: UUID = Particulars.mainSiteUUID, lessor: String = "",
                swlConfigurations: String = "", declarationReference: String = "", declarationDate: String = "") {
        self.assetUUID = assetUUID
        self.siteUUID = siteUUID
        self.lessor = lessor
        self.swlConfigurations = swlConfigurations
        self.declarationReference = declarationReference
        self.declarationDate = declarationDate
    }

    enum CodingKeys: String, CodingKey {
        case lessor
        case assetUUID = "asset_uuid"
        case siteUUID = "site_uuid"
        case swlConfigurations = "swl_configurations"
        case declarationReference = "declaration_reference"
        case declarationDate = "declaration_date"
    }
}

/// One new version of one particular: what the register appends (never edits).
public enum ParticularsChange: Hashable, Sendable {
    case organisation(ExaminingOrganisation)
    case employer(Employer)
    case site(Site)
    case examiner(Examiner)
    case asset(AssetParticulars)

    /// The word stored for the kind of subject.
    public var kind: String {
        switch self {
        case .organisation: "organisation"
        case .employer: "employer"
        case .site: "site"
        case .examiner: "examiner"
        case .asset: "asset"
        }
    }

    /// What the change is about: each subject has its own history.
    public var subject: UUID {
        switch self {
        case .organisation: Particulars.organisationUUID
        case .employer(let e): e.uuid
        case .site(let s): s.uuid
        case .examiner(let e): e.uuid
        case .asset(let a): a.assetUUID
        }
    }

    /// The texts a change carries, for the checks every text gets (length, control characters).
    var texts: [(label: String, text: String)] {
        switch self {
        case .organisation(let o): [("organisation name", o.name), ("organisation address", o.address)]
        case .employer(let e): [("employer name", e.name), ("employer address", e.address)]
        case .site(let s): [("site name", s.name), ("site address", s.address)]
        case .examiner(let e): [("examiner name", e.name), ("qualification", e.qualification),
                                ("examiner address", e.address)]
        case .asset(let a): [("lessor", a.lessor), ("SWL configurations", a.swlConfigurations),
                             ("declaration reference", a.declarationReference),
                             ("declaration date", a.declarationDate)]
        }
    }

    /// Why this change cannot be kept, as sentences; empty when it can. Addresses may hold line breaks.
    public func problems(in current: Particulars) -> [String] {
        var problems: [String] = []
        for (label, text) in texts {
            let multiline = label.hasSuffix("address") || label == "SWL configurations"
            if TextRules.containsControlCharacters(text, allowingNewlines: multiline) {
                problems.append("The \(label) holds control characters.")
            }
            let limit = multiline ? 1000 : Asset.maxTextLength
            if text.count > limit { problems.append("The \(label) is longer than \(limit) characters.") }
        }
        switch self {
        case .employer(let e) where e.name.trimmingCharacters(in: .whitespaces).isEmpty:
            problems.append("An employer needs a name.")
        case .site(let s):
            if s.name.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("A site needs a name.") }
            if current.employers[s.employerUUID] == nil { problems.append("The site's employer is not in the register.") }
        case .examiner(let e) where e.name.trimmingCharacters(in: .whitespaces).isEmpty:
            problems.append("An examiner needs a name.")
        case .asset(let a):
            if current.sites[a.siteUUID] == nil { problems.append("The asset's site is not in the register.") }
            let date = a.declarationDate.trimmingCharacters(in: .whitespaces)
            if !date.isEmpty && CalendarDate(iso: date) == nil {
                problems.append("Enter the declaration date as YYYY-MM-DD (a real date).")
            }
        default: break
        }
        return problems
    }
}

/// The particulars in force: the newest version of each subject.
public struct Particulars: Hashable, Sendable {
    /// Fixed identities of what a new or upgraded register starts with, so two registers upgraded apart
    /// merge without duplicating them.
    public static let mainEmployerUUID = UUID(uuidString: "5249C0DE-0000-4000-8000-000000000001")!
    public static let mainSiteUUID = UUID(uuidString: "5249C0DE-0000-4000-8000-000000000002")!
    public static let organisationUUID = UUID(uuidString: "5249C0DE-0000-4000-8000-000000000003")!

    public var organisation: ExaminingOrganisation
    public var employers: [UUID: Employer]
    public var sites: [UUID: Site]
    public var examiners: [UUID: Examiner]
    public var assets: [UUID: AssetParticulars]

    public init(organisation: ExaminingOrganisation = ExaminingOrganisation(), employers: [UUID: Employer] = [:],
                sites: [UUID: Site] = [:], examiners: [UUID: Examiner] = [:], assets: [UUID: AssetParticulars] = [:]) {
        self.organisation = organisation
        self.employers = employers
        self.sites = sites
        self.examiners = examiners
        self.assets = assets
    }

    /// What a register starts with: one employer and its one site, named for renaming in Settings.
    public static let initial = Particulars(
        employers: [mainEmployerUUID: Employer(uuid: mainEmployerUUID, name: "Main employer")],
        sites: [mainSiteUUID: Site(uuid: mainSiteUUID, employerUUID: mainEmployerUUID, name: "Main site")])

    /// The changes that make these particulars from nothing: the organisation, employers, sites, examiners,
    /// then assets' particulars.
    public var changes: [ParticularsChange] {
        (organisation == ExaminingOrganisation() ? [] : [.organisation(organisation)])
            + employerList.map(ParticularsChange.employer) + siteList.map(ParticularsChange.site)
            + examinerList.map(ParticularsChange.examiner)
            + assets.values.sorted { $0.assetUUID.uuidString < $1.assetUUID.uuidString }.map(ParticularsChange.asset)
    }

    public mutating func apply(_ change: ParticularsChange) {
        switch change {
        case .organisation(let o): organisation = o
        case .employer(let e): employers[e.uuid] = e
        case .site(let s): sites[s.uuid] = s
        case .examiner(let e): examiners[e.uuid] = e
        case .asset(let a): assets[a.assetUUID] = a
        }
    }

    public func applying(_ change: ParticularsChange) -> Particulars {
        var copy = self
        copy.apply(change)
        return copy
    }

    /// Employers, sites and examiners by name, for lists.
    public var employerList: [Employer] { employers.values.sorted { ($0.name, $0.uuid.uuidString) < ($1.name, $1.uuid.uuidString) } }
    public var siteList: [Site] { sites.values.sorted { ($0.name, $0.uuid.uuidString) < ($1.name, $1.uuid.uuidString) } }
    public var examinerList: [Examiner] {
        examiners.values.sorted { ($0.name, $0.uuid.uuidString) < ($1.name, $1.uuid.uuidString) }
    }

    /// The asset's particulars; an asset never given any is on the main site.
    public func asset(_ uuid: UUID) -> AssetParticulars { assets[uuid] ?? AssetParticulars(assetUUID: uuid) }

    /// The examiner of this name (names compared as typed, without surrounding spaces, case-insensitively).
    public func examiner(named name: String) -> Examiner? {
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        return examinerList.first { $0.name.trimmingCharacters(in: .whitespaces).lowercased() == wanted }
    }

    /// What a report on this asset copies, the examiner found by name (nil: not yet one of the register's).
    public func report(assetUUID: UUID, examinerName: String) -> ReportParticulars {
        let asset = asset(assetUUID)
        let site = sites[asset.siteUUID] ?? Site(uuid: asset.siteUUID, employerUUID: Particulars.mainEmployerUUID,
                                                 name: "(site not in the register)")
        let employer = employers[site.employerUUID] ?? Employer(uuid: site.employerUUID, name: "")
        return ReportParticulars(employer: employer, site: site, organisation: organisation,
                                 examiner: examiner(named: examinerName), asset: asset)
    }
}

/// The particulars a saved record copies (the values in force when it was saved), stored with it as JSON.
public struct ReportParticulars: Codable, Hashable, Sendable {
    public var employer: Employer
    public var site: Site
    public var organisation: ExaminingOrganisation
    /// Nil when the examiner was not one of the register's (the register then adds them at save).
    public var examiner: Examiner?
    public var asset: AssetParticulars
    /// Schedule 1 item 4: the date of the last thorough examination before this one, filled at save.
    public var previousThoroughExamination: String?

    public init(employer: Employer, site: Site, organisation: ExaminingOrganisation, examiner: Examiner?,
                asset: AssetParticulars, previousThoroughExamination: String? = nil) {
        self.employer = employer
        self.site = site
        self.organisation = organisation
        self.examiner = examiner
        self.asset = asset
        self.previousThoroughExamination = previousThoroughExamination
    }

    enum CodingKeys: String, CodingKey {
        case employer, site, organisation, examiner, asset
        case previousThoroughExamination = "previous_thorough_examination"
    }

    /// What the gate asks for a thorough examination (Schedule 1 items 1 and 2), as a sentence; nil when set.
    public var missingForReport: String? {
        var missing: [String] = []
        if employer.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { missing.append("the employer's name") }
        if employer.address.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            missing.append("the employer's address")
        }
        if site.address.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            missing.append("the address of site \(site.name)")
        }
        guard !missing.isEmpty else { return nil }
        let list = missing.count == 1 ? missing[0]
            : missing.dropLast().joined(separator: ", ") + " and " + missing.last!
        return "A report of thorough examination needs \(list): set them in Settings (, on the list)."
    }
}

/// Particulars as stored: JSON with sorted keys, so the same values always give the same text (and hash).
public enum ParticularsJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from text: String) -> T? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
