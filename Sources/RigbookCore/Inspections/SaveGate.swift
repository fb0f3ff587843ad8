import Foundation

/// One unmet rule of the save gate, tied to the field a person should go to.
public struct GateProblem: Hashable, Sendable {
    public var field: FormField
    public var message: String
}

/// A complete, confirmed inspection record. Only `SaveGate.validate` can make one (its initialiser is
/// private to this file), and the register's insert accepts nothing else: no other code path can
/// put evidence into the register.
public struct ValidatedInspection: Sendable {
    public let assetUUID: UUID
    /// The form session it was typed in; the register refuses the same session id twice.
    public let sessionID: String
    /// The record this one amends, by its lasting identity (what the register keeps) and by its id here.
    public let amends: UUID?
    public let amendsID: Int64?
    /// Trimmed values, exactly as they will be stored.
    public let values: InspectionValues
    public let result: InspectionResult
    public let inspectionDate: CalendarDate
    public let remedyDeadline: CalendarDate?
    /// A thorough examination's stated latest date for the next one (Schedule 1 item 8d).
    public let nextExaminationBy: CalendarDate?
    /// A thorough examination's particulars as the gate found them set (the register adds item 4).
    public let particulars: ReportParticulars?

    fileprivate init(assetUUID: UUID, sessionID: String, amending: StoredInspection?, values: InspectionValues,
                     result: InspectionResult, inspectionDate: CalendarDate, remedyDeadline: CalendarDate?,
                     nextExaminationBy: CalendarDate?, particulars: ReportParticulars?) {
        self.assetUUID = assetUUID
        self.sessionID = sessionID
        self.amends = amending?.recordUUID
        self.amendsID = amending?.id
        self.values = values
        self.result = result
        self.inspectionDate = inspectionDate
        self.remedyDeadline = remedyDeadline
        self.nextExaminationBy = nextExaminationBy
        self.particulars = particulars
    }

    /// What the status rules need of this record once saved as `id` at `savedAt`.
    /// `alsoAmends`: the other live amendments its save supersedes (the register works them out).
    public func facts(id: Int64, savedAt: String? = nil, alsoAmends: [Int64] = []) -> RecordFacts {
        RecordFacts(id: id, type: values.inspectionType, result: result, action: values.action,
                    remedyDeadline: remedyDeadline, inspectionDate: inspectionDate, amends: amendsID,
                    nextExaminationBy: nextExaminationBy, savedAt: savedAt).alsoAmending(alsoAmends)
    }
}

/// The save gate ("evidence complete", SPEC §4): every rule, every unmet one reported as a sentence.
public enum SaveGate {
    public struct Context: Sendable {
        public var assetUUID: UUID
        public var commissioned: CalendarDate?
        /// The asset's interval: the latest the next thorough examination may be set (Schedule 1 item 8d).
        public var intervalMonths: Int
        public var today: CalendarDate
        /// The form session (`DraftIdentity.sessionID`).
        public var sessionID: String
        /// The record an amendment corrects (the newest of its chain); nil for a fresh inspection.
        public var amending: StoredInspection?
        /// The register's particulars for this asset, which a thorough examination copies; nil: none known.
        public var particulars: ReportParticulars?
        /// When the asset was retired (and how), if it was: no fresh inspection of it can be saved.
        public var retired: (on: CalendarDate, how: String)?

        public init(asset: Asset, today: CalendarDate, sessionID: String, amending: StoredInspection? = nil,
                    particulars: ReportParticulars?) {
            self.assetUUID = asset.uuid
            self.commissioned = asset.commissioned
            self.intervalMonths = asset.intervalMonths
            self.today = today
            self.sessionID = sessionID
            self.amending = amending
            self.particulars = particulars
            retired = asset.retirement
        }

        /// The next thorough examination's latest date for an examination on `date`: the interval's.
        public func intervalDue(after date: CalendarDate) -> CalendarDate { date.addingMonths(intervalMonths) }
    }

    /// Every unmet rule, in form order.
    public static func problems(_ values: InspectionValues, context: Context) -> [GateProblem] {
        switch validate(values, context: context) {
        case .success: []
        case .failure(let failure): failure.problems
        }
    }

    /// The problems after a change of `field` alone, given the problems of the values before it (as `problems`
    /// gave them, under the same context): equal to `problems(values, context:)` always. Notes, outside an
    /// amendment, take part in rule 10 alone (an amendment compares the whole record with the one it amends), so
    /// only their own problems are judged again: a typed character there no longer runs every rule. Any other
    /// field is judged with every rule.
    public static func problems(_ values: InspectionValues, context: Context, changing field: FormField,
                                previous: [GateProblem]) -> [GateProblem] {
        guard field == .notes, context.amending == nil else { return problems(values, context: context) }
        var judged = previous.filter { $0.field != .notes }
        // In form order, as `validate` sorts them; a field's own problems in the order its rules run.
        let at = judged.firstIndex { $0.field > field } ?? judged.count
        judged.insert(contentsOf: textRule(field, values.notes).problems, at: at)
        return judged
    }

    /// Rule 10 for one text field: the text as it would be stored (trimmed), and what is wrong with it.
    private static func textRule(_ field: FormField, _ text: String) -> (trimmed: String, problems: [GateProblem]) {
        let trimmed = text.trimmingWhitespaceAndNewlines
        var problems: [GateProblem] = []
        if TextRules.containsControlCharacters(trimmed, allowingNewlines: field.isMultiline) {
            problems.append(GateProblem(field: field, message: "\(field.label) holds control characters."))
        }
        if trimmed.hasMoreCharacters(than: field.maxLength) {
            problems.append(GateProblem(field: field,
                                        message: "\(field.label) is longer than \(field.maxLength) characters."))
        }
        return (trimmed, problems)
    }

    public struct Failure: Error, Sendable { public var problems: [GateProblem] }

    public static func validate(_ raw: InspectionValues, context: Context) -> Result<ValidatedInspection, Failure> {
        var problems: [GateProblem] = []
        func fail(_ field: FormField, _ message: String) {
            problems.append(GateProblem(field: field, message: message))
        }

        // Rule 10 first, so the other rules judge the trimmed text that would be stored.
        var v = raw
        let textFields: [(FormField, WritableKeyPath<InspectionValues, String>)] = [
            (.inspectorName, \.inspectorName), (.certificationNumber, \.certificationNumber),
            (.notes, \.notes), (.schemeReference, \.schemeReference),
            (.defectDescription, \.defectDescription), (.amendmentReason, \.amendmentReason),
            (.testParticulars, \.testParticulars), (.repairParticulars, \.repairParticulars),
            (.remedyParticulars, \.remedyParticulars),
        ]
        for (field, path) in textFields {
            let (trimmed, unmet) = textRule(field, v[keyPath: path])
            v[keyPath: path] = trimmed
            problems += unmet
        }

        // A retired asset (scrapped, sold, lost) is examined no more; its records may still be corrected.
        if let retired = context.retired, context.amending == nil {
            fail(.inspectionType, "This asset was retired (\(retired.how), \(retired.on.iso)): put it back into "
                 + "service in the asset editor (e) before recording an inspection of it.")
        }
        // Rule 1.
        if !v.confirmed {
            fail(.confirmed, v.inspectionType.isThorough ? "Tick to authenticate this report as its examiner."
                 : "Tick the confirmation that this record is accurate.")
        }
        // Rule 2.
        if v.inspectorName.isEmpty { fail(.inspectorName, "Enter the inspector's name.") }
        if v.inspectionType.isThorough && v.certificationNumber.isEmpty {
            fail(.certificationNumber, "A thorough examination needs the inspector's certification number.")
        }
        // Rule 3.
        let date = CalendarDate(iso: v.inspectionDate.trimmingWhitespace)
        if let date {
            if date > context.today { fail(.inspectionDate, "The inspection date is in the future.") }
            // Equipment is examined before first use (LOLER reg 9(1)): those two types may precede it.
            let mayPrecede: Set<InspectionType> = [.thoroughInitial, .thoroughAfterInstallation]
            if let tooEarly = RecordDates.tooEarly(date, what: "inspection date") {
                fail(.inspectionDate, tooEarly)
            } else if let commissioned = context.commissioned, date < commissioned,
                      !mayPrecede.contains(v.inspectionType) {
                fail(.inspectionDate, "The inspection date is before the asset was commissioned (\(commissioned.iso)); "
                     + "only an initial or after-installation examination may come before first use.")
            }
        } else {
            fail(.inspectionDate, RelativeDate.outOfRange(v.inspectionDate, from: context.today, today: context.today)
                 ?? "Enter the inspection date as YYYY-MM-DD (a real date).")
        }
        // Rule 4.
        if v.result == nil { fail(.result, "Choose a result.") }
        // Rule 5.
        if v.result == .pass {
            if !v.allChecksTicked {
                let unticked = FormField.allCases.filter { isCheck($0) && !checkValue($0, in: v) }
                fail(unticked.first ?? .checkMarking, "A pass needs all five checks ticked.")
            }
            if v.action != .none { fail(.action, "A pass needs action None.") }
            if v.remedyDeadlineSet { fail(.remedyDeadlineSet, "A pass cannot have a remedy deadline.") }
        }
        // Rule 6.
        if let result = v.result, result != .pass, v.defectDescription.isEmpty {
            fail(.defectDescription, "Describe the defect (part and defect) for a result other than Pass.")
        }
        // Rule 7.
        var deadline: CalendarDate?
        if v.remedyDeadlineSet {
            deadline = CalendarDate(iso: v.remedyDeadline.trimmingWhitespace)
            if deadline == nil {
                let outOfRange = RelativeDate.outOfRange(v.remedyDeadline, from: context.today, today: context.today)
                fail(.remedyDeadline, outOfRange ?? "Enter the remedy deadline as YYYY-MM-DD (a real date).")
            } else if let deadline, let date, deadline <= date {
                fail(.remedyDeadline, "The remedy deadline must be after the inspection date.")
            }
        }
        if v.result == .defectToBeRemedied && !v.remedyDeadlineSet {
            fail(.remedyDeadlineSet, "A defect to be remedied needs a remedy deadline.")
        }
        // Rule 8.
        if v.result == .failDangerous && (v.action == .none || v.action == .monitor) {
            fail(.action, "A dangerous fail needs an action other than None or Monitor.")
        }
        // Rule 9.
        if v.inspectionType == .thoroughScheme && v.schemeReference.isEmpty {
            fail(.schemeReference, "An examination per scheme needs the scheme reference.")
        }
        // Amendments: a reason, and a record that says something the amended one did not.
        if let amended = context.amending {
            if v.amendmentReason.isEmpty {
                fail(.amendmentReason, "Give the reason for amending record #\(amended.id).")
            }
            if said(v) == said(amended.values) {
                fail(.amendmentReason, "Nothing differs from record #\(amended.id): "
                     + "change what was wrong, or close the form to leave the record as it is.")
            }
        } else {
            v.amendmentReason = ""
        }

        let nextBy = reportRules(&v, date: date, context: context, fail: fail)

        guard problems.isEmpty, let result = v.result, let date else {
            return .failure(Failure(problems: problems.sorted { $0.field < $1.field }))
        }
        v.remedyDeadline = deadline?.iso ?? ""  // stored exactly as the register will hold it
        v.inspectionDate = date.iso
        return .success(ValidatedInspection(assetUUID: context.assetUUID, sessionID: context.sessionID,
                                            amending: context.amending, values: v, result: result,
                                            inspectionDate: date, remedyDeadline: deadline, nextExaminationBy: nextBy,
                                            particulars: v.inspectionType.isThorough ? context.particulars : nil))
    }

    /// The report particulars' rules (Schedule 1), which only a thorough examination has: the
    /// register's particulars are set, the basis fits the type, an installation is said to be correct before it
    /// passes, a defect says what it needs, and the next examination is no later than the interval allows.
    /// Leaves in `v` only the particulars that apply, the basis and the next date resolved; returns that date.
    private static func reportRules(_ v: inout InspectionValues, date: CalendarDate?, context: Context,
                                    fail: (FormField, String) -> Void) -> CalendarDate? {
        for field in FormField.reportFields where !field.applies(to: v) {
            switch field {
            case .examinationBasis: v.examinationBasis = nil
            case .installedCorrectly: v.installedCorrectly = false
            case .testParticulars: v.testParticulars = ""
            case .repairParticulars: v.repairParticulars = ""
            case .remedyParticulars: v.remedyParticulars = ""
            case .nextExaminationBy: v.nextExaminationBy = ""
            default: break
            }
        }
        guard v.inspectionType.isThorough else { return nil }
        if let missing = context.particulars.map({ $0.missingForReport }) ?? "A report of thorough examination "
            + "needs the employer's name and address and the site's address: set them in Settings (, on the list)." {
            fail(.inspectionType, missing)
        }
        let basis = v.examinationBasis
            ?? ExaminationBasis.prefill(for: v.inspectionType, intervalMonths: context.intervalMonths)
        if let basis, !ExaminationBasis.allowed(for: v.inspectionType).contains(basis) {
            fail(.examinationBasis,
                 "The basis “\(basis.label)” does not fit a \(v.inspectionType.label.lowercased()).")
        } else if basis == .within12Months && context.intervalMonths <= 6 {
            fail(.examinationBasis, "This asset is examined every \(context.intervalMonths) months: "
                 + "its periodic examination is within 6 months.")
        }
        v.examinationBasis = basis
        if v.inspectionType == .thoroughAfterInstallation, v.result?.passes == true, !v.installedCorrectly {
            fail(.installedCorrectly, "An examination after installation that passes needs the tick that it "
                 + "was installed correctly and is safe to operate.")
        }
        if v.result == .defectToBeRemedied || v.result == .failDangerous, v.repairParticulars.isEmpty {
            fail(.repairParticulars, "Give the repair, renewal or alteration the defect requires.")
        }
        if v.result == .defectToBeRemedied, v.remedyParticulars.isEmpty {
            fail(.remedyParticulars, "Give the remedy a defect to be remedied requires.")
        }
        guard let date else { return nil }
        let latest = context.intervalDue(after: date)
        let typed = v.nextExaminationBy.trimmingWhitespace
        guard !typed.isEmpty else {
            v.nextExaminationBy = latest.iso
            return latest
        }
        guard let next = CalendarDate(iso: typed) else {
            fail(.nextExaminationBy, RelativeDate.outOfRange(typed, from: date, today: context.today)
                 ?? "Enter the next examination's latest date as YYYY-MM-DD (a real date), "
                 + "or leave it empty for \(latest.iso).")
            return nil
        }
        if next <= date {
            fail(.nextExaminationBy, "The next thorough examination must be after this one (\(date.iso)).")
        } else if next > latest {
            fail(.nextExaminationBy, "The next thorough examination may be brought forward, never put off: "
                 + "the \(context.intervalMonths)-month interval makes \(latest.iso) the latest.")
        }
        v.nextExaminationBy = next.iso
        return next
    }

    /// What a record says, as the register holds it (text already trimmed by rule 10): the confirmation and
    /// the reason left out, dates trimmed, a remedy deadline only when one is set.
    private static func said(_ values: InspectionValues) -> InspectionValues {
        var v = values
        v.confirmed = true
        v.amendmentReason = ""
        v.inspectionDate = v.inspectionDate.trimmingWhitespace
        v.remedyDeadline = v.remedyDeadlineSet ? v.remedyDeadline.trimmingWhitespace : ""
        return v
    }

    private static func isCheck(_ field: FormField) -> Bool {
        (FormField.checkMarking...FormField.checkCorrosion).contains(field)
    }

    private static func checkValue(_ field: FormField, in v: InspectionValues) -> Bool {
        switch field {
        case .checkMarking: v.checkMarking
        case .checkCuts: v.checkCuts
        case .checkDeformation: v.checkDeformation
        case .checkFittings: v.checkFittings
        case .checkCorrosion: v.checkCorrosion
        default: true
        }
    }
}
