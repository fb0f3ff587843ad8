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
