import Foundation

/// An item of lifting equipment: the 12 fields of SPEC §3 plus the internal UUID that drafts and
/// records refer to (tags can be re-lettered; the UUID never changes).
public struct Asset: Hashable, Sendable {
    public var uuid: UUID
    public var tag: String
    public var name: String
    public var type: EquipmentType
    public var wllKg: Double
    public var lengthM: Double?
    public var location: String
    public var manufacturer: String
    public var serialNumber: String
    public var manufactured: CalendarDate?
    public var commissioned: CalendarDate?
    public var intervalMonths: Int
    public var liftsPersons: Bool
    /// The examination scheme that sets a longer interval than LOLER reg 9(3) allows otherwise; may be empty.
    public var examinationScheme: String
    /// Set when the asset left service for good: it leaves the active list, `due` and the calendar;
    /// its records stay (LOLER reg 11).
    public var retiredOn: CalendarDate?
    public var disposition: Disposition?
    /// Set for an electrical asset (TagWorks): its class, environment, risk and the reason for an
    /// interval other than AS/NZS 3760's. Nil for lifting equipment. An electrical asset keeps `type` `.other`,
    /// `wllKg` 0 and no length, manufacturer, serial or date of manufacture; `location` is its site.
    public var electrical: ElectricalParticulars?
    /// The owner's own plant number for it, from their register (beside our tag); empty when none.
    public var clientRef: String

    public init(uuid: UUID = UUID(), tag: String, name: String, type: EquipmentType, wllKg: Double,
                lengthM: Double? = nil, location: String = "", manufacturer: String = "",
                serialNumber: String = "", manufactured: CalendarDate? = nil,
                commissioned: CalendarDate? = nil, intervalMonths: Int, liftsPersons: Bool = false,
                examinationScheme: String = "", retiredOn: CalendarDate? = nil, disposition: Disposition? = nil,
                clientRef: String = "") {
        self.uuid = uuid
        self.tag = tag
        self.name = name
        self.type = type
        self.wllKg = wllKg
        self.lengthM = lengthM
        self.location = location
        self.manufacturer = manufacturer
        self.serialNumber = serialNumber
        self.manufactured = manufactured
        self.commissioned = commissioned
        self.intervalMonths = intervalMonths
        self.liftsPersons = liftsPersons
        self.examinationScheme = examinationScheme
        self.retiredOn = retiredOn
        self.disposition = disposition
        self.clientRef = clientRef
    }

    public var isRetired: Bool { retiredOn != nil }

    /// When and how it left service (the disposition's words), nil while it is in service: no fresh inspection
    /// or test of it can be saved, by the gate when the form opens and by the register under its write lock.
    public var retirement: (on: CalendarDate, how: String)? {
        retiredOn.map { ($0, disposition?.label ?? "retired") }
    }

    public static let intervalRange = 1...60
    /// From a 10 g lifting eye to the heaviest cranes built (about 20,000 t), with room: a value outside is a slip
    /// of the keyboard (`1e22`), never equipment.
    public static let wllRange = 0.01...100_000_000.0
    public static let maxTextLength = 200

    /// The 12 fields of SPEC §3, the examination scheme and the owner's reference, in the order the add-asset
    /// screen shows them; then what only the asset editor shows: how and when it left service, and why it changed.
    public enum Field: Int, CaseIterable, Sendable {
        case tag, name, type, wll, length, location, manufacturer, serial, manufactured, commissioned, interval,
             liftsPersons, examinationScheme, clientRef, disposition, retiredOn, reason,
             // What a new asset is, and an electrical asset's own fields.
             kind, equipmentClass, environment, risk, intervalReason

        /// The fields of a new electrical asset (TagWorks' 8), in the order the add-asset screen shows them.
        public static let electricalAdded: [Field] = [.tag, .name, .location, .equipmentClass, .environment, .risk,
                                                      .interval, .intervalReason, .commissioned, .clientRef]

        /// The fields of a new asset.
        public static let added: [Field] = allCases.filter { $0.rawValue <= Field.clientRef.rawValue }

        public var label: String {
            switch self {
            case .tag: "Tag"
            case .name: "Name / description"
            case .type: "Equipment type"
            case .wll: "WLL (kg)"
            case .length: "Length (m, optional)"
            case .location: "Location"
            case .manufacturer: "Manufacturer"
            case .serial: "Serial number"
            case .manufactured: "Made (optional)"
            case .commissioned: "Commissioned"
            case .interval: "Interval (months)"
            case .liftsPersons: "Lifts persons"
            case .examinationScheme: "Examination scheme"
            case .clientRef: "Client ref (optional)"
            case .disposition: "In service"
            case .retiredOn: "Retired on"
            case .reason: "Reason for change"
            case .kind: "Kind of asset"
            case .equipmentClass: "Equipment class"
            case .environment: "Environment"
            case .risk: "Risk"
            case .intervalReason: "Interval reason"
            }
        }
    }

    /// Every reason this asset cannot enter the register, as sentences. Empty means valid.
    /// `today`: wherever today is known (the command line, the add-asset screen) pass it, and dates after
    /// it are refused too; without it (the register, which has no calendar) dates are checked against
    /// each other only.
    public func problems(today: CalendarDate? = nil) -> [String] { fieldProblems(today: today).map(\.message) }

    /// The same reasons, each tied to the field a person should go to.
    public func fieldProblems(today: CalendarDate? = nil) -> [(field: Field, message: String)] {
        var problems: [(field: Field, message: String)] = []
        func add(_ field: Field, _ message: String) { problems.append((field, message)) }
        let trimmedTag = tag.trimmingCharacters(in: .whitespaces)
        if trimmedTag.isEmpty { add(.tag, "The tag must not be empty.") }
        if trimmedTag != tag { add(.tag, "The tag must not start or end with spaces.") }
        if let problem = Tags.invisibleCharacterProblem(tag) { add(.tag, problem) }
        // The owner's reference identifies the item as the tag does: no character that hides or turns text.
        if let problem = Tags.invisibleCharacterProblem(clientRef, what: "client ref") { add(.clientRef, problem) }
        if !tag.unicodeScalars.elementsEqual(Tags.normalized(tag).unicodeScalars) {
            add(.tag, "The tag is not in Unicode normal form NFC (an accent is stored as a separate mark).")
        }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { add(.name, "The name must not be empty.") }
        if electrical == nil {
            if !(wllKg > 0) || !wllKg.isFinite { add(.wll, "The working load limit must be more than 0 kg.")
            } else if !Asset.wllRange.contains(wllKg) {
                add(.wll, "The working load limit must be between \(Asset.wllText(Asset.wllRange.lowerBound)) and "
                    + "\(Asset.wllText(Asset.wllRange.upperBound)) (\(Asset.wllText(wllKg)) was given).")
            }
        }
        if electrical != nil, wllKg != 0 || lengthM != nil || manufactured != nil || liftsPersons {
            add(.wll, "An electrical asset has no working load limit, length, date of manufacture "
                    + "or lifting of persons.")
        }
        if let length = lengthM, !(length > 0) || !length.isFinite { add(.length, "The length must be more than 0 m.") }
        if !Asset.intervalRange.contains(intervalMonths) {
            add(.interval, "The inspection interval must be 1 to 60 months.")
        }
        let texts: [(Field, String, String)] = [
            (.tag, "tag", tag), (.name, "name", name), (.location, "location", location),
            (.manufacturer, "manufacturer", manufacturer), (.serial, "serial number", serialNumber),
            (.examinationScheme, "examination scheme reference", examinationScheme),
            (.intervalReason, "interval reason", electrical?.intervalReason ?? ""),
            (.clientRef, "client ref", clientRef),
        ]
        for (field, label, text) in texts {
            if text.count > Asset.maxTextLength {
                add(field, "The \(label) is longer than \(Asset.maxTextLength) characters.")
            }
            if TextRules.containsControlCharacters(text) { add(field, "The \(label) holds control characters.") }
        }
        if let made = manufactured, let commissioned, commissioned < made {
            add(.commissioned, "The commission date is before the date of manufacture.")
        }
        if let today {
            if let made = manufactured, made > today {
                add(.manufactured, "The date of manufacture \(made.iso) is in the future (today is \(today.iso)).")
            }
            if let commissioned, commissioned > today {
                add(.commissioned, "The commission date (first use) \(commissioned.iso) is in the future"
                    + " (today is \(today.iso)).")
            }
        }
        return problems
    }
}

/// LOLER reg 9(3)(a): a thorough examination at least every 6 months for lifting accessories and for
/// equipment that lifts persons, every 12 months for other lifting equipment, or at the intervals of an
/// examination scheme. A longer interval without a scheme refuses a *new* asset (`asset add`, the add
/// screen); one already in a register is flagged, never refused or changed.
extension Asset {
    /// The longest interval LOLER reg 9(3) allows without an examination scheme.
    public var lolerMaximumIntervalMonths: Int { type.lolerMaximumIntervalMonths(liftsPersons: liftsPersons) }

    /// The interval is longer than LOLER reg 9(3) allows and no examination scheme sets it: flag it.
    public var intervalExceedsLOLER: Bool {
        electrical == nil && intervalMonths > lolerMaximumIntervalMonths
            && examinationScheme.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// The sentence naming the regulation, when `intervalExceedsLOLER`.
    public var intervalProblem: String? {
        guard intervalExceedsLOLER else { return nil }
        let what = liftsPersons ? "equipment that lifts persons" : type.isAccessory ? "a lifting accessory"
            : "other lifting equipment"
        let limit = lolerMaximumIntervalMonths
        return "LOLER regulation 9(3) allows at most \(limit) months between thorough examinations of \(what) "
            + "unless an examination scheme sets the interval: enter the scheme reference, or an interval of "
            + "\(limit) months or less (not \(intervalMonths))."
    }

    /// Every reason a new asset is refused: `fieldProblems()` and the LOLER interval.
    public func admissionProblems(today: CalendarDate? = nil) -> [(field: Field, message: String)] {
        fieldProblems(today: today) + (intervalProblem.map { [(Field.examinationScheme, $0)] } ?? [])
            + (electricalIntervalProblem.map { [(Field.intervalReason, $0)] } ?? [])
    }
}

/// Shared rules for text typed into the register (SPEC §4 rule 10).
public enum TextRules {
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }

    public static func containsControlCharacters(_ text: String, allowingNewlines: Bool = false) -> Bool {
        // C0 and DEL are single bytes; C1 (U+0080–U+009F) is 0xC2 then 0x80–0x9F: no need to decode scalars.
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 && !(allowingNewlines && byte == 0x0A) { return true }
            if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            previous = byte
        }
        return false
    }

    /// Drops control characters, as typing and pasting do; keeps newlines where a field allows them.
    public static func removingControlCharacters(_ text: String, keepingNewlines: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) || (keepingNewlines && scalar == "\n") {
            scalars.append(scalar)
        }
        return String(scalars)
    }
}

extension Asset {
    /// "500 kg", "1 t", "12.5 t", "1.96 t", "1999 kg": how WLL is marked on equipment. Never
    /// rounded: showing a higher limit than the real one is a safety problem. Tonnes only when the
    /// value is a whole number of 10 kg (two decimals of a tonne), else kilograms as entered.
    public static func wllText(_ kg: Double) -> String {
        // Whatever a damaged or older register holds, never trap on a conversion: beyond Int, as Swift writes it.
        guard kg.isFinite, abs(kg) < 1e15 else { return "\(kg) kg" }
        let tensOfKg = kg / 10
        if kg >= 1000, tensOfKg == tensOfKg.rounded() {
            let hundredths = Int(tensOfKg)
            let whole = hundredths / 100, fraction = hundredths % 100
            if fraction == 0 { return "\(whole) t" }
            if fraction % 10 == 0 { return "\(whole).\(fraction / 10) t" }
            return "\(whole).\(fraction < 10 ? "0" : "")\(fraction) t"
        }
        if kg == kg.rounded() { return "\(Int(kg)) kg" }
        var text = String(kg)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text + " kg"
    }
}
