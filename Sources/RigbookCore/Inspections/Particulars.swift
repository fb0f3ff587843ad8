import Foundation

/// The register's particulars (SPEC §10 items 1, 2, 5 and 9): who the examinations are made
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
    /// The colour code its labels and the register list show: the organisation's practice, so
    /// it is kept, with its history, beside the organisation's name.
    public var colourCode: ColourCodeScheme
    /// The limits electrical tests are judged by (SPEC §12): the organisation's practice too, so kept here with
    /// their history; a version kept before they were settings holds the defaults.
    public var testLimits: TestLimits

    public init(name: String = "", address: String = "", colourCode: ColourCodeScheme = .none,
                testLimits: TestLimits = .defaults) {
        self.name = name
        self.address = address
        self.colourCode = colourCode
        self.testLimits = testLimits
    }

    /// Without a colour code or limits of its own the JSON is what it was before them (`{"address":…,"name":…}`):
    /// versions kept before and records that copied the organisation read and compare the same. A colour code or
    /// limits a later build wrote in a shape this one cannot read are none and the defaults, rather than the
    /// organisation unreadable (each missing limit reads as its default, `TestLimits.init(from:)`).
    static let jsonFields: [JSONField<ExaminingOrganisation>] = [
        .required("name", \.name),
        .required("address", \.address),
        .added("colour_code", \.colourCode, absent: .none, omitted: { $0 == .none }, tolerant: true),
        .added("test_limits", \.testLimits, absent: .defaults, omitted: { $0 == .defaults }, tolerant: true),
    ]

    public init(from decoder: Decoder) throws {
        self = try Self.jsonFields.read(from: decoder, into: ExaminingOrganisation())
    }

    public func encode(to encoder: Encoder) throws { try Self.jsonFields.write(self, to: encoder) }
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

    /// The fields of this kind of particular, in the order an editor shows them.
    public var fields: [ParticularField] {
        switch self {
        case .organisation: [.name, .address, .colourCode]
        case .employer: [.name, .address]
        case .site: [.name, .employer, .address]
        case .examiner: [.name, .qualification, .selfEmployed, .address]
        case .asset: [.site, .lessor, .swlConfigurations, .declarationReference, .declarationDate]
        }
    }

    /// Every field a version carries, as its history compares them: the organisation's with its test limits
    /// (edited apart from its name and address, in Settings' own section).
    public var historyFields: [ParticularField] {
        if case .organisation = self { return fields + ParticularField.limitFields }
        return fields
    }

    /// The texts a change carries, for the checks every text gets (length, control characters).
    var texts: [(field: ParticularField, label: String, text: String)] {
        fields.filter { $0.isText && !$0.isLimit }.map { ($0, label(of: $0), self[$0]) }
    }

    /// How sentences name a field of this kind ("employer name", "site address").
    public func label(of field: ParticularField) -> String {
        switch field {
        case .name, .address: "\(kind == "organisation" ? "organisation" : kind) \(field.word)"
        default: field.word
        }
    }

    /// Why this change cannot be kept, as sentences; empty when it can. Addresses may hold line breaks.
    public func problems(in current: Particulars) -> [String] { fieldProblems(in: current).map(\.message) }

    /// Why this change cannot be kept, each sentence with the field it is about (nil: the whole change). Where today
    /// is known (the editor), a declaration dated after it is refused too.
    public func fieldProblems(in current: Particulars,
                              today: CalendarDate? = nil) -> [(field: ParticularField?, message: String)] {
        var problems: [(field: ParticularField?, message: String)] = []
        for (field, label, text) in texts {
            if TextRules.containsControlCharacters(text, allowingNewlines: field.isMultiline) {
                problems.append((field, "The \(label) holds control characters."))
            }
            if text.count > field.maxLength {
                problems.append((field, "The \(label) is longer than \(field.maxLength) characters."))
            }
            // A particular printed on a report must read as what it is (Acme<U+200B> Ltd is not Acme Ltd).
            if let hidden = Tags.invisibleCharacterProblem(text, what: label) { problems.append((field, hidden)) }
        }
        // Names are how people (and the command line) pick a particular, and how the form finds its examiner:
        // two of one kind with the same name could not be told apart.
        switch self {
        case .employer(let e):
            if Particulars.nameKey(e.name).isEmpty { problems.append((.name, "An employer needs a name.")) }
            else if current.employers.values.contains(where: {
                $0.uuid != e.uuid && Particulars.sameName($0.name, e.name)
            }) {
                problems.append((.name, "Another employer is already named \(e.name.trimmed)."))
            }
        case .site(let s):
            if Particulars.nameKey(s.name).isEmpty { problems.append((.name, "A site needs a name.")) }
            if let employer = current.employers[s.employerUUID] {
                if current.sites.values.contains(where: {
                    $0.uuid != s.uuid && $0.employerUUID == s.employerUUID && Particulars.sameName($0.name, s.name)
                }) {
                    problems.append((.name, "\(employer.name.trimmed) already has a site named \(s.name.trimmed)."))
                }
            } else {
                problems.append((.employer, "The site's employer is not in the register."))
            }
        case .examiner(let e):
            if Particulars.nameKey(e.name).isEmpty { problems.append((.name, "An examiner needs a name.")) }
            else if current.examiners.values.contains(where: {
                $0.uuid != e.uuid && Particulars.sameName($0.name, e.name)
            }) {
                problems.append((.name, "Another examiner is already named \(e.name.trimmed)."))
            }
        case .asset(let a):
            if current.sites[a.siteUUID] == nil { problems.append((.site, "The asset's site is not in the register.")) }
            let date = a.declarationDate.trimmingCharacters(in: .whitespaces)
            if !date.isEmpty && CalendarDate(iso: date) == nil {
                problems.append((.declarationDate, "Enter the declaration date as YYYY-MM-DD (a real date)."))
            } else if let declared = CalendarDate(iso: date), let today, declared > today {
                problems.append((.declarationDate, "The declaration date \(declared.iso) is in the future (today is "
                                 + "\(today.iso))."))
            }
        case .organisation(let o):
            problems += o.testLimits.problems.map { (Optional($0.field), $0.message) }
        }
        return problems
    }

    /// A field's value as text: a choice as its uuid, self-employed as yes or no.
    public subscript(field: ParticularField) -> String {
        switch (self, field) {
        case (.organisation(let o), .name): o.name
        case (.organisation(let o), .address): o.address
        case (.organisation(let o), .colourCode): o.colourCode.rawValue
        case (.organisation(let o), let limit) where limit.isLimit: o.testLimits.text(of: limit)
        case (.employer(let e), .name): e.name
        case (.employer(let e), .address): e.address
        case (.site(let s), .name): s.name
        case (.site(let s), .address): s.address
        case (.site(let s), .employer): s.employerUUID.uuidString
        case (.examiner(let e), .name): e.name
        case (.examiner(let e), .qualification): e.qualification
        case (.examiner(let e), .selfEmployed): e.selfEmployed ? "yes" : "no"
        case (.examiner(let e), .address): e.address
        case (.asset(let a), .site): a.siteUUID.uuidString
        case (.asset(let a), .lessor): a.lessor
        case (.asset(let a), .swlConfigurations): a.swlConfigurations
        case (.asset(let a), .declarationReference): a.declarationReference
        case (.asset(let a), .declarationDate): a.declarationDate
        default: ""
        }
    }

    /// This change with one field set from text (a choice from a uuid, self-employed from yes or no); a field
    /// this kind does not have, or a choice that is not a uuid, leaves it as it was.
    public func setting(_ field: ParticularField, to text: String) -> ParticularsChange {
        let uuid = UUID(uuidString: text)
        switch (self, field) {
        case (.organisation(var o), .name): o.name = text; return .organisation(o)
        case (.organisation(var o), .address): o.address = text; return .organisation(o)
        case (.organisation(var o), .colourCode):
            if let scheme = ColourCodeScheme(rawValue: text) { o.colourCode = scheme }
            return .organisation(o)
        case (.organisation(var o), let limit) where limit.isLimit:
            o.testLimits = o.testLimits.setting(limit, to: text)
            return .organisation(o)
        case (.employer(var e), .name): e.name = text; return .employer(e)
        case (.employer(var e), .address): e.address = text; return .employer(e)
        case (.site(var s), .name): s.name = text; return .site(s)
        case (.site(var s), .address): s.address = text; return .site(s)
        case (.site(var s), .employer):
            if let uuid { s.employerUUID = uuid }
            return .site(s)
        case (.examiner(var e), .name): e.name = text; return .examiner(e)
        case (.examiner(var e), .qualification): e.qualification = text; return .examiner(e)
        case (.examiner(var e), .selfEmployed): e.selfEmployed = text == "yes"; return .examiner(e)
        case (.examiner(var e), .address): e.address = text; return .examiner(e)
        case (.asset(var a), .site):
            if let uuid { a.siteUUID = uuid }
            return .asset(a)
        case (.asset(var a), .lessor): a.lessor = text; return .asset(a)
        case (.asset(var a), .swlConfigurations): a.swlConfigurations = text; return .asset(a)
        case (.asset(var a), .declarationReference): a.declarationReference = text; return .asset(a)
        case (.asset(var a), .declarationDate): a.declarationDate = text; return .asset(a)
        default: return self
        }
    }

    /// What an editor opened on `base` and made into this saves over `current` (the version in force now): the
    /// fields it changed, on the rest as they stand now, so two terminals editing different fields both keep
    /// their change. A field also changed there, to something else, keeps the register's value and is named.
    public func merged(from base: ParticularsChange, onto current: ParticularsChange)
        -> (change: ParticularsChange, conflicts: [ParticularsConflict]) {
        var merged = current
        var conflicts: [ParticularsConflict] = []
        for field in ParticularField.allCases {
            let mine = self[field].trimmed, before = base[field].trimmed, theirs = current[field].trimmed
            guard mine != before, mine != theirs else { continue }
            if theirs == before {
                merged = merged.setting(field, to: self[field])
            } else {
                conflicts.append(ParticularsConflict(subject: subject, field: field, theirs: current[field]))
            }
        }
        return (merged, conflicts)
    }

    /// Every text trimmed of spaces and line breaks at its ends, as the gate trims the form's text.
    public var trimmed: ParticularsChange {
        texts.reduce(self) { change, text in change.setting(text.field, to: text.text.trimmed) }
    }
}

/// A field two editors changed apart: this one's change is not saved; the register keeps `theirs`.
public struct ParticularsConflict: Sendable, Hashable {
    /// The particular (employer, site, examiner, …) it is a field of.
    public var subject: UUID
    public var field: ParticularField
    public var theirs: String

    public init(subject: UUID, field: ParticularField, theirs: String) {
        self.subject = subject
        self.field = field
        self.theirs = theirs
    }
}

/// One field of a particular. The raw value is the field's name in `rigbook settings` keys
/// (`employer.address`, `examiner.self_employed`).
public enum ParticularField: String, CaseIterable, Sendable, Hashable {
    case name, address, employer, qualification
    case selfEmployed = "self_employed"
    case site, lessor
    case swlConfigurations = "swl_configurations"
    case declarationReference = "declaration_reference"
    case declarationDate = "declaration_date"
    case colourCode = "colour_code"
    /// The electrical test limits (`TestLimitsSettings.swift`), set as `limits.<raw value>`.
    case earthContinuityMaxOhm = "earth_continuity_max_ohm"
    case insulationMinMOhm = "insulation_min_mohm"
    case leakageMaxMAClassI = "leakage_max_ma_class_i"
    case leakageMaxMAOther = "leakage_max_ma_other"
    case rcdTripMaxMsTypeII = "rcd_trip_max_ms_type_ii"
    case rcdTripMaxMsTypeI = "rcd_trip_max_ms_type_i"
    case calibrationWarningMonths = "calibration_warning_months"

    /// How a sentence names it.
    public var word: String {
        switch self {
        case .name: "name"
        case .address: "address"
        case .employer: "employer"
        case .qualification: "qualification"
        case .selfEmployed: "self-employed"
        case .site: "site"
        case .lessor: "owner or lessor"
        case .swlConfigurations: "SWL configurations"
        case .declarationReference: "declaration reference"
        case .declarationDate: "declaration date"
        case .colourCode: "colour code"
        case .earthContinuityMaxOhm: "earth continuity limit"
        case .insulationMinMOhm: "insulation resistance limit"
        case .leakageMaxMAClassI: "Class I leakage limit"
        case .leakageMaxMAOther: "other classes' leakage limit"
        case .rcdTripMaxMsTypeII: "Type II RCD trip time limit"
        case .rcdTripMaxMsTypeI: "Type I RCD trip time limit"
        case .calibrationWarningMonths: "calibration warning"
        }
    }

    /// Addresses and SWL configurations may run over several lines.
    public var isMultiline: Bool { self == .address || self == .swlConfigurations }

    /// Typed text, as opposed to a choice (employer, site) or a yes/no.
    public var isText: Bool { ![.employer, .site, .selfEmployed, .colourCode].contains(self) }

    public var maxLength: Int { isLimit ? 12 : isMultiline ? 1000 : Asset.maxTextLength }
}

/// One version of a particular, as its history lists it.
public struct ParticularsVersion: Sendable, Hashable {
    public var change: ParticularsChange
    public var changedAt: String
    public var operatorName: String

    public init(change: ParticularsChange, changedAt: String, operatorName: String) {
        self.change = change
        self.changedAt = changedAt
        self.operatorName = operatorName
    }
}

/// Employers, sites and examiners: what lists show by name.
protocol NamedParticular {
    var uuid: UUID { get }
    var name: String { get }
}

extension NamedParticular {
    /// The one order of every list of them, and of the first match a name lookup takes: by name, a tie by uuid,
    /// so it never follows a dictionary's order.
    static func listedBefore(_ a: Self, _ b: Self) -> Bool {
        (a.name, a.uuid.uuidString) < (b.name, b.uuid.uuidString)
    }
}

extension Employer: NamedParticular {}
extension Site: NamedParticular {}
extension Examiner: NamedParticular {}

extension String {
    /// Without spaces and line breaks at either end.
    var trimmed: String { trimmingWhitespaceAndNewlines }
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

    /// The version in force of what `change` is about, nil when the register has none yet.
    public func current(of change: ParticularsChange) -> ParticularsChange? {
        switch change {
        case .organisation: .organisation(organisation)
        case .employer(let e): employers[e.uuid].map(ParticularsChange.employer)
        case .site(let s): sites[s.uuid].map(ParticularsChange.site)
        case .examiner(let e): examiners[e.uuid].map(ParticularsChange.examiner)
        case .asset(let a): .asset(asset(a.assetUUID))
        }
    }

    /// Employers, sites and examiners by name, for lists.
    public var employerList: [Employer] { employers.values.sorted(by: Employer.listedBefore) }
    public var siteList: [Site] { sites.values.sorted(by: Site.listedBefore) }
    public var examinerList: [Examiner] { examiners.values.sorted(by: Examiner.listedBefore) }

    /// Names compared as people read them: without spaces at the ends, ignoring letter case.
    public static func nameKey(_ name: String) -> String { name.trimmed.lowercased() }

    public static func sameName(_ a: String, _ b: String) -> Bool { nameKey(a) == nameKey(b) }

    /// The asset's particulars; an asset never given any is on the main site.
    public func asset(_ uuid: UUID) -> AssetParticulars { assets[uuid] ?? AssetParticulars(assetUUID: uuid) }

    /// The site an asset is on: its particulars' site, the main site for an asset never given one (nil only when
    /// that site is not in the register). The list, the history screen, labels and certificates all ask here,
    /// so none of them can name a site another does not.
    public func site(ofAsset uuid: UUID) -> Site? { sites[asset(uuid).siteUUID] }

    /// The examiner of this name (names compared as typed, without surrounding spaces, case-insensitively).
    public func examiner(named name: String) -> Examiner? {
        let wanted = name.trimmingWhitespace.lowercased()
        // The first of `examinerList` that matches, without sorting them all: the form asks on every keystroke.
        return examiners.values.filter { $0.name.trimmingWhitespace.lowercased() == wanted }
            .min(by: Examiner.listedBefore)
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
        if employer.name.trimmingWhitespaceAndNewlines.isEmpty {
            missing.append("the employer's name")
        }
        if employer.address.trimmingWhitespaceAndNewlines.isEmpty {
            missing.append("the employer's address")
        }
        if site.address.trimmingWhitespaceAndNewlines.isEmpty {
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
