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

    /// What a saved test writes back: its own particulars (an empty calibration date leaves the profile's).
    public func writingBack(_ v: TestValues) -> TestProfile {
        var p = self
        p.technician = v.technician
        p.licenceNumber = v.licenceNumber
        p.instrumentModel = v.instrumentModel
        p.instrumentSerial = v.instrumentSerial
        p.procedureReference = v.procedureReference
        if !v.calibrationDate.isEmpty { p.calibrationDate = v.calibrationDate }
        return p
    }
}
