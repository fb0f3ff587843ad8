import Foundation

/// What the profile keeps for the test form (TagWorks' five keys and the licence), written back on save.
public struct TestProfile: Hashable, Sendable, Codable {
    public var technician = ""
    public var licenceNumber = ""
    public var instrumentModel = ""
    public var instrumentSerial = ""
    public var procedureReference = ""
    public var calibrationDate = ""

    public init(technician: String = "", licenceNumber: String = "", instrumentModel: String = "",
                instrumentSerial: String = "", procedureReference: String = "", calibrationDate: String = "") {
        self.technician = technician
        self.licenceNumber = licenceNumber
        self.instrumentModel = instrumentModel
        self.instrumentSerial = instrumentSerial
        self.procedureReference = procedureReference
        self.calibrationDate = calibrationDate
    }

    enum CodingKeys: String, CodingKey {
        case technician, licenceNumber = "licence_number", instrumentModel = "instrument_model"
        case instrumentSerial = "instrument_serial", procedureReference = "procedure_reference"
        case calibrationDate = "calibration_date"
    }

    /// A key a profile written by another build lacks reads as empty: the profile only prefills.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) -> String { (try? c.decodeIfPresent(String.self, forKey: key)) ?? "" }
        technician = text(.technician)
        licenceNumber = text(.licenceNumber)
        instrumentModel = text(.instrumentModel)
        instrumentSerial = text(.instrumentSerial)
        procedureReference = text(.procedureReference)
        calibrationDate = text(.calibrationDate)
    }

    /// What a saved test writes back: its own particulars, as the examiner's name is remembered; one it left
    /// empty leaves the profile's, so a test saved without its instrument does not forget the instrument.
    public func writingBack(_ v: TestValues) -> TestProfile {
        var p = self
        let kept: [(WritableKeyPath<TestProfile, String>, String)] = [
            (\.technician, v.technician), (\.licenceNumber, v.licenceNumber), (\.instrumentModel, v.instrumentModel),
            (\.instrumentSerial, v.instrumentSerial), (\.procedureReference, v.procedureReference),
            (\.calibrationDate, v.calibrationDate),
        ]
        for (path, value) in kept where !value.trimmingCharacters(in: .whitespaces).isEmpty { p[keyPath: path] = value }
        return p
    }
}
