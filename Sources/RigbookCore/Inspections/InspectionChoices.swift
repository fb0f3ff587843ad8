/// The choice fields of the inspection form (SPEC §4). Raw values are the stable snake_case words
/// used in the register, the draft files and every JSON output.
public enum InspectionType: String, CaseIterable, Sendable, Codable {
    case preUse = "pre_use"
    case interim
    case thoroughInitial = "thorough_initial"
    case thoroughAfterInstallation = "thorough_after_installation"
    case thoroughPeriodic = "thorough_periodic"
    case thoroughScheme = "thorough_scheme"
    case thoroughExceptional = "thorough_exceptional"

    public var label: String {
        switch self {
        case .preUse: "Pre-use check"
        case .interim: "Interim inspection"
        case .thoroughInitial: "Thorough examination (initial)"
        case .thoroughAfterInstallation: "Thorough examination (after installation)"
        case .thoroughPeriodic: "Thorough examination (periodic)"
        case .thoroughScheme: "Thorough examination (per examination scheme)"
        case .thoroughExceptional: "Thorough examination (after exceptional circumstances)"
        }
    }

    /// Only thorough examinations move the due date (SPEC §7).
    public var isThorough: Bool {
        switch self {
        case .preUse, .interim: false
        default: true
        }
    }
}

public enum InspectionResult: String, CaseIterable, Sendable, Codable {
    case pass
    case passWithObservations = "pass_with_observations"
    case defectToBeRemedied = "defect_to_be_remedied"
    case failDangerous = "fail_dangerous"

    public var label: String {
        switch self {
        case .pass: "Pass"
        case .passWithObservations: "Pass with observations"
        case .defectToBeRemedied: "Defect to be remedied"
        case .failDangerous: "Fail – dangerous, do not use"
        }
    }
}

public enum InspectionAction: String, CaseIterable, Sendable, Codable {
    case none
    case monitor
    case repair
    case quarantine
    case withdraw

    public var label: String {
        switch self {
        case .none: "None"
        case .monitor: "Monitor"
        case .repair: "Repair / renew / alter"
        case .quarantine: "Quarantine"
        case .withdraw: "Withdraw from service"
        }
    }
}

/// Schedule 1 items 6 and 7(a): on what basis a thorough examination was made. Prefilled from the
/// inspection type and the asset's interval; the gate checks it fits the type.
public enum ExaminationBasis: String, CaseIterable, Sendable, Codable {
    case within6Months = "within_6_months"
    case within12Months = "within_12_months"
    case examinationScheme = "examination_scheme"
    case exceptionalCircumstances = "exceptional_circumstances"
    case afterInstallation = "after_installation"
    /// Reg 9(1): new equipment examined before it is first put into service.
    case beforeFirstUse = "before_first_use"

    public var label: String {
        switch self {
        case .within6Months: "Within 6 months"
        case .within12Months: "Within 12 months"
        case .examinationScheme: "Per examination scheme"
        case .exceptionalCircumstances: "After exceptional circumstances"
        case .afterInstallation: "After installation or assembly"
        case .beforeFirstUse: "Before first use"
        }
    }

    /// The basis a thorough examination of this type has, on an asset examined every `intervalMonths`
    /// (periodic: 6 months for up to 6, else 12); nil for inspections that are not thorough.
    public static func prefill(for type: InspectionType, intervalMonths: Int) -> ExaminationBasis? {
        switch type {
        case .preUse, .interim: nil
        case .thoroughInitial: .beforeFirstUse
        case .thoroughAfterInstallation: .afterInstallation
        case .thoroughScheme: .examinationScheme
        case .thoroughExceptional: .exceptionalCircumstances
        case .thoroughPeriodic: intervalMonths <= 6 ? .within6Months : .within12Months
        }
    }

    /// The bases a thorough examination of this type may have.
    public static func allowed(for type: InspectionType) -> [ExaminationBasis] {
        switch type {
        case .thoroughPeriodic: [.within6Months, .within12Months]
        default: prefill(for: type, intervalMonths: 12).map { [$0] } ?? []
        }
    }
}
