/// The kinds of lifting equipment SPEC §3 names. The raw value is the command-line spelling.
public enum EquipmentType: String, CaseIterable, Sendable, Codable {
    case webSling = "web-sling"
    case roundSling = "round-sling"
    case chainSling = "chain-sling"
    case wireRopeSling = "wire-rope-sling"
    case shackle
    case eyebolt
    case hook
    case chainBlock = "chain-block"
    case leverHoist = "lever-hoist"
    case beamClamp = "beam-clamp"
    case spreaderBeam = "spreader-beam"
    case other

    public var label: String {
        switch self {
        case .webSling: "Web sling"
        case .roundSling: "Round sling"
        case .chainSling: "Chain sling"
        case .wireRopeSling: "Wire rope sling"
        case .shackle: "Shackle"
        case .eyebolt: "Eyebolt"
        case .hook: "Hook"
        case .chainBlock: "Chain block"
        case .leverHoist: "Lever hoist"
        case .beamClamp: "Beam clamp"
        case .spreaderBeam: "Spreader beam"
        case .other: "Other"
        }
    }

    /// Lifting accessories are examined every 6 months under LOLER; other lifting equipment every 12.
    /// Accessories attach a load to a lifting machine (slings, shackles, eyebolts, hooks, spreader beams);
    /// chain blocks and lever hoists are machines, and a beam clamp anchors the machine to the structure.
    /// `other` is not assumed to be an accessory (see docs/DECISIONS.md).
    public var isAccessory: Bool {
        switch self {
        case .webSling, .roundSling, .chainSling, .wireRopeSling, .shackle, .eyebolt, .hook, .spreaderBeam: true
        case .chainBlock, .leverHoist, .beamClamp, .other: false
        }
    }

    /// SPEC §3: 6 months for accessories and for equipment lifting persons, 12 otherwise: the longest
    /// interval LOLER reg 9(3) allows without an examination scheme.
    public func defaultIntervalMonths(liftsPersons: Bool) -> Int {
        lolerMaximumIntervalMonths(liftsPersons: liftsPersons)
    }

    /// LOLER reg 9(3)(a): 6 months for accessories and for equipment lifting persons, 12 otherwise.
    public func lolerMaximumIntervalMonths(liftsPersons: Bool) -> Int {
        isAccessory || liftsPersons ? 6 : 12
    }
}
