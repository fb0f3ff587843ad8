import Foundation
import RigbookCore

extension TestValues {
    /// A Class I item's test that the gate passes under the default limits, authenticated: the base the gate's
    /// tests change one reading of.
    public static func classI(earth: String = "0.1", insulation: String = "50", date: String = "2026-11-20")
        -> TestValues {
        var v = TestValues()
        v.testDate = date
        v.technician = "Ana"
        v.visual = .pass
        v.earthContinuityOhm = earth
        v.insulationMOhm = insulation
        v.authenticated = true
        return v
    }
}
