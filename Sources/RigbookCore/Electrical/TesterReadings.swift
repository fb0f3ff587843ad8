import Foundation

/// The tests a PAT tester's export names, and the test form's field each one fills: the names and units as testers
/// spell them (Seaward, Megger, Kewtech, Metrel; `Ω` or `Ohm`). docs/FORMATS.md ("`rigbook tests import`") prints
/// this table; a name not in it is refused with the accepted ones.
public struct TesterReading: Sendable {
    /// The field of the test form the reading fills.
    public var field: TestField
    /// What the reading is, in a sentence ("insulation resistance").
    public var what: String
    /// The names it is exported under, folded as `folded` folds a cell.
    public var names: [String]
    /// The units it may carry, exactly (a reading in `mΩ` is not one in `MΩ`); none: a pass/fail observation.
    public var units: [String]

    public var isObservation: Bool { units.isEmpty }

    public static let table: [TesterReading] = [
        TesterReading(field: .visual, what: "visual inspection",
                      names: ["visual", "visual inspection", "full visual", "formal visual", "visual check"],
                      units: []),
        TesterReading(field: .earthContinuity, what: "earth continuity",
                      names: ["earth continuity", "earth bond", "earth resistance", "earth",
                              "protective conductor resistance", "protective conductor continuity"],
                      units: ["Ω", "Ohm", "Ohms", "ohm", "ohms", "OHM", "OHMS"]),
        TesterReading(field: .insulation, what: "insulation resistance",
                      names: ["insulation", "insulation resistance", "insulation test", "ir"],
                      units: ["MΩ", "MOhm", "MOhms", "Mohm", "Mohms", "MOHM", "MOHMS"]),
        TesterReading(field: .leakage, what: "protective-conductor or touch current",
                      names: ["protective conductor current", "touch current", "leakage", "leakage current",
                              "differential leakage", "substitute leakage", "earth leakage"],
                      units: ["mA"]),
        TesterReading(field: .polarity, what: "polarity", names: ["polarity", "polarity check"], units: []),
        TesterReading(field: .rcdPushButton, what: "RCD push-button test",
                      names: ["rcd push button", "rcd test button", "push button", "rcd button"],
                      units: []),
        TesterReading(field: .rcdTripTime, what: "RCD trip time",
                      names: ["rcd trip time", "rcd trip", "rcd", "rcd x1", "rcd 1x", "trip time"], units: ["ms"]),
        TesterReading(field: .loadCurrent, what: "load current", names: ["load current", "load"], units: ["A"]),
    ]

    /// A test name as compared: lower case, punctuation and runs of spaces made one space.
    public static func folded(_ name: String) -> String {
        name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : " " }.joined()
            .split(separator: " ").joined(separator: " ")
    }

    /// The reading a tester's test name stands for; nil when Rigbook records no such test.
    public static func named(_ name: String) -> TesterReading? {
        let key = folded(name)
        return table.first { $0.names.contains(key) }
    }

    /// A unit as written, the ohm sign (U+2126) read as the Greek omega testers also use.
    public static func unit(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{2126}", with: "Ω")
    }

    /// The accepted names, for a refusal: each reading's names after what it is.
    public static var acceptedNames: String {
        table.map { "\($0.what): " + $0.names.joined(separator: ", ") }.joined(separator: "; ")
    }

    /// A pass/fail cell (`P`, `Pass`, `F`, `Fail`, any case); nil for anything else.
    public static func passFail(_ text: String) -> PassFail? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "p", "pass", "passed": .pass
        case "f", "fail", "failed": .fail
        default: nil
        }
    }
}
