import Foundation

/// The 12 asset fields as typed (text), turned into an `Asset` with every problem named. Used by the
/// add-asset screen and the asset editor (whose draft file holds it); numbers and dates stay text until
/// then so nothing typed is lost.
public struct AssetDraft: Sendable, Equatable, Codable {
    public var tag = ""
    public var name = ""
    public var type: EquipmentType = .webSling
    public var wllKg = ""
    public var lengthM = ""
    public var location = ""
    public var manufacturer = ""
    public var serialNumber = ""
    public var manufactured = ""
    public var commissioned = ""
    /// Empty means the default for the type (6 or 12 months).
    public var intervalMonths = ""
    public var liftsPersons = false
    /// Needed only for an interval longer than LOLER reg 9(3) allows.
    public var examinationScheme = ""
    /// The editor's own fields: how and when the asset left service (nil: in service) and why
    /// the asset is changed.
    public var disposition: Disposition?
    public var retiredOn = ""
    public var reason = ""
    /// Lifting equipment or an electrical asset, and the electrical asset's own fields (an empty
    /// interval is the AS/NZS 3760 table's for the environment and risk).
    public var kind: AssetKind = .lifting
    public var equipmentClass: ElectricalClass = .classI
    public var environment: ElectricalEnvironment = .factory
    public var risk: ElectricalRisk = .normal
    public var intervalReason = ""
    /// The owner's own plant number, of either kind of asset.
    public var clientRef = ""

    public init() {}

    /// An empty draft of one kind.
    public init(kind: AssetKind) { self.kind = kind }

    /// The asset as the editor opens it: every field as text, the interval always written out.
    public init(asset a: Asset) {
        tag = a.tag
        name = a.name
        type = a.type
        wllKg = ExportValue.numberText(a.wllKg)
        lengthM = a.lengthM.map(ExportValue.numberText) ?? ""
        location = a.location
        manufacturer = a.manufacturer
        serialNumber = a.serialNumber
        manufactured = a.manufactured?.iso ?? ""
        commissioned = a.commissioned?.iso ?? ""
        intervalMonths = String(a.intervalMonths)
        liftsPersons = a.liftsPersons
        examinationScheme = a.examinationScheme
        disposition = a.disposition
        retiredOn = a.retiredOn?.iso ?? ""
        clientRef = a.clientRef
        if let e = a.electrical {
            kind = .electrical
            equipmentClass = e.equipmentClass
            environment = e.environment
            risk = e.risk
            intervalReason = e.intervalReason
            wllKg = ""
        }
    }

    /// The draft as JSON, field by field. Every field may be absent from a draft another build wrote (it reads as
    /// the empty form's); an electrical asset's own fields are written only for one, so a lifting asset's draft
    /// is as it was before they existed.
    public static let jsonFields: [JSONField<AssetDraft>] = everyAssetField + electricalFields.map {
        $0.written(when: { $0.kind == .electrical })
    }

    private static let everyAssetField: [JSONField<AssetDraft>] = [
        .added("tag", \.tag, absent: ""),
        .added("name", \.name, absent: ""),
        .added("type", \.type, absent: .webSling),
        .added("wll_kg", \.wllKg, absent: ""),
        .added("length_m", \.lengthM, absent: ""),
        .added("location", \.location, absent: ""),
        .added("manufacturer", \.manufacturer, absent: ""),
        .added("serial_number", \.serialNumber, absent: ""),
        .added("manufactured", \.manufactured, absent: ""),
        .added("commissioned", \.commissioned, absent: ""),
        .added("interval_months", \.intervalMonths, absent: ""),
        .added("lifts_persons", \.liftsPersons, absent: false),
        .added("examination_scheme", \.examinationScheme, absent: ""),
        .added("disposition", \.disposition, absent: nil, omitted: { $0 == nil }),
        .added("retired_on", \.retiredOn, absent: ""),
        .added("reason", \.reason, absent: ""),
        .added("client_ref", \.clientRef, absent: ""),
    ]

    private static let electricalFields: [JSONField<AssetDraft>] = [
        .added("kind", \.kind, absent: .lifting),
        .added("equipment_class", \.equipmentClass, absent: .classI),
        .added("environment", \.environment, absent: .factory),
        .added("risk", \.risk, absent: .normal),
        .added("interval_reason", \.intervalReason, absent: ""),
    ]

    /// Every name this build reads and writes (a draft keeps the others as they were, `UnknownDraftKeys`).
    public static let jsonKeys = jsonFields.keys()

    public init(from decoder: Decoder) throws { self = try Self.jsonFields.read(from: decoder, into: AssetDraft()) }
    public func encode(to encoder: Encoder) throws { try Self.jsonFields.write(self, to: encoder) }

    /// The asset `original` becomes, or every reason it cannot, tied to fields: the checks of adding one
    /// (`Asset.editProblems`), and a reason, which every change of evidence needs. The uuid stays.
    public func validatedEdit(of original: Asset, today: CalendarDate) -> Result<Asset, Problems> {
        var problems: [(Field, String)] = []
        var asset: Asset?
        switch parsed(today: today, checkingInterval: false) {
        case .success(let parsedAsset): asset = parsedAsset
        case .failure(let failure): problems = failure.items
        }
        let retired = retiredOn.trimmingCharacters(in: .whitespaces)
        var retiredDate: CalendarDate?
        if !retired.isEmpty {
            retiredDate = AssetDraft.date(retired, today: today)
            if retiredDate == nil { problems.append((.retiredOn, AssetDraft.dateProblem(retired, today: today))) }
        }
        if var edited = asset {
            edited.uuid = original.uuid
            edited.disposition = disposition
            edited.retiredOn = disposition == nil ? nil : retiredDate
            if disposition == nil, retiredDate != nil {
                problems.append((.disposition, "Choose how it left service, or clear the retirement date."))
            }
            // A retirement date typed but unreadable is said once, not also as missing.
            let unreadable = retiredDate == nil && !retired.isEmpty
            problems += edited.editProblems(from: original, today: today)
                .filter { !(unreadable && $0.field == .retiredOn) }.map { ($0.field, $0.message) }
            if AssetField.differences(from: original, to: edited).isEmpty {
                problems.append((.reason, "Nothing was changed."))
            } else if reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                problems.append((.reason, "Say why the asset changes (e.g. moved to Bay 4, WLL misread)."))
            } else if reason.count > Asset.maxTextLength || TextRules.containsControlCharacters(reason) {
                problems.append((.reason, "The reason holds control characters or is longer than "
                                 + "\(Asset.maxTextLength) characters."))
            }
            asset = edited
        }
        guard problems.isEmpty, let asset else { return .failure(Problems(items: problems)) }
        return .success(asset)
    }

    public var defaultInterval: Int {
        kind == .electrical ? ElectricalParticulars.intervalMonths(environment, risk)
            : type.defaultIntervalMonths(liftsPersons: liftsPersons)
    }

    /// The fields a new asset of this kind shows, the kind first.
    public var addedFields: [Field] { [.kind] + (kind == .electrical ? Field.electricalAdded : Field.added) }

    public typealias Field = Asset.Field

    /// The asset's date fields: each takes `YYYY-MM-DD`, `today` or a date counted back from today (`-3m`).
    public static let dateFields: [Field] = [.manufactured, .commissioned, .retiredOn]

    /// Why `text` is no date: out of range when counted too far, else what a date field takes.
    static func dateProblem(_ text: String, today: CalendarDate) -> String {
        RelativeDate.outOfRange(text, from: today, today: today) ?? "Write the date as \(RelativeDate.pastExpected)."
    }

    /// The date a date field's text stands for, written either way.
    static func date(_ text: String, today: CalendarDate) -> CalendarDate? {
        RelativeDate.isRelative(text) ? RelativeDate.resolve(text, from: today, today: today) : CalendarDate(iso: text)
    }

    /// Writes a date typed the quick way (`today`, `-6m`) out as `YYYY-MM-DD`, as the field is left; text that
    /// means no date is left as typed, for the field's message to explain.
    public mutating func expandRelativeDate(_ field: Field, today: CalendarDate) {
        guard AssetDraft.dateFields.contains(field), let path = field.textPath else { return }
        let text = self[keyPath: path].trimmingCharacters(in: .whitespaces)
        guard RelativeDate.isRelative(text),
              let date = RelativeDate.resolve(text, from: today, today: today) else { return }
        self[keyPath: path] = date.iso
    }

    /// The asset, or every reason it cannot be one, tied to fields. Dates after `today` are refused;
    /// the tag is stored in Unicode NFC.
    public func validated(today: CalendarDate) -> Result<Asset, Problems> {
        parsed(today: today, checkingInterval: true)
    }

    /// The asset the text makes; `checkingInterval`: with the LOLER interval rule of a new asset.
    private func parsed(today: CalendarDate, checkingInterval: Bool) -> Result<Asset, Problems> {
        var problems: [(Field, String)] = []
        func trimmed(_ s: String) -> String { s.trimmingCharacters(in: .whitespaces) }
        func number(_ text: String, _ field: Field, optional: Bool) -> Double? {
            let t = trimmed(text)
            if t.isEmpty {
                let what = field == .wll ? "working load limit in kg" : field.label.lowercased()
                if !optional { problems.append((field, "Enter the \(what).")) }
                return nil
            }
            guard let value = NumberText.decimal(t) else { problems.append((field, NumberText.problem(t))); return nil }
            guard value > 0 else {
                problems.append((field, "\(field.label) must be a number greater than 0.")); return nil
            }
            return value
        }
        func date(_ text: String, _ field: Field) -> CalendarDate? {
            let t = trimmed(text)
            if t.isEmpty { return nil }
            guard let date = AssetDraft.date(t, today: today) else {
                problems.append((field, AssetDraft.dateProblem(t, today: today))); return nil
            }
            return date
        }
        let electrical = kind == .electrical
        let wll = electrical ? 0 : number(wllKg, .wll, optional: false)
        let length = electrical ? nil : number(lengthM, .length, optional: true)
        let made = electrical ? nil : date(manufactured, .manufactured)
        let commission = date(commissioned, .commissioned)
        var interval = defaultInterval
        if !trimmed(intervalMonths).isEmpty {
            if let value = Int(trimmed(intervalMonths)), Asset.intervalRange.contains(value) { interval = value }
            else { problems.append((.interval, "The interval must be a whole number of months from 1 to 60.")) }
        }
        var asset = Asset(tag: Tags.normalized(trimmed(tag)), name: trimmed(name), type: type, wllKg: wll ?? 1,
                          lengthM: length, location: trimmed(location), manufacturer: trimmed(manufacturer),
                          serialNumber: trimmed(serialNumber), manufactured: made, commissioned: commission,
                          intervalMonths: interval, liftsPersons: liftsPersons,
                          examinationScheme: trimmed(examinationScheme))
        if electrical {
            asset = Asset.electrical(tag: asset.tag, name: asset.name, site: asset.location,
                                     particulars: ElectricalParticulars(
                                        equipmentClass: equipmentClass, environment: environment, risk: risk,
                                        intervalReason: trimmed(intervalReason)),
                                     intervalMonths: interval, commissioned: commission)
        }
        asset.clientRef = trimmed(clientRef)
        // The WLL's own message is already there when it did not parse.
        let assetProblems = checkingInterval ? asset.admissionProblems(today: today) : asset.fieldProblems(today: today)
        problems += assetProblems.filter { wll != nil || $0.field != .wll }
            .map { ($0.field, $0.message) }
        guard problems.isEmpty, wll != nil else { return .failure(Problems(items: problems)) }
        return .success(asset)
    }

    public struct Problems: Error, Sendable, Equatable {
        public var items: [(Field, String)]
        public static func == (a: Problems, b: Problems) -> Bool {
            a.items.map(\.0) == b.items.map(\.0) && a.items.map(\.1) == b.items.map(\.1)
        }
    }
}

extension AssetDraft.Field {
    /// Where a typed field keeps its text (nil for the fields that are chosen).
    public var textPath: WritableKeyPath<AssetDraft, String>? {
        switch self {
        case .tag: \.tag
        case .name: \.name
        case .wll: \.wllKg
        case .length: \.lengthM
        case .location: \.location
        case .manufacturer: \.manufacturer
        case .serial: \.serialNumber
        case .manufactured: \.manufactured
        case .commissioned: \.commissioned
        case .interval: \.intervalMonths
        case .examinationScheme: \.examinationScheme
        case .retiredOn: \.retiredOn
        case .reason: \.reason
        case .intervalReason: \.intervalReason
        case .clientRef: \.clientRef
        case .type, .liftsPersons, .disposition, .kind, .equipmentClass, .environment, .risk: nil
        }
    }
}
