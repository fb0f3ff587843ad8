import Foundation
import RigbookCore
import RigbookStore
import Testing

extension RigbookCLITests {
    /// `rigbook settings get|set limits.*`: the electrical test limits from a shell (SPEC §12).
    @Suite("rigbook settings limits") struct LimitsCommand {
        private func home(_ dir: TempDir) -> String {
            let home = dir.sub("home")
            let added = runRigbookResult(["asset", "add", "--tag", "SL-0042", "--name", "2 t web sling", "--type",
                                          "web-sling", "--wll", "2000"], home: home)
            #expect(added.status == 0, "\(added)")
            return home
        }

        @Test func getPrintsTheDefaultsAndSetKeepsAVersionThatGetPrints() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = home(dir)
            #expect(runRigbook(["settings", "get", "limits.earth_continuity_max_ohm"], home: home).stdout == "1\n")
            #expect(runRigbook(["settings", "get", "limits.calibration_warning_months"], home: home).stdout == "12\n")
            let set = runRigbookResult(["settings", "set", "limits.earth_continuity_max_ohm", " 0.5 "], home: home)
            #expect(set.status == 0, "\(set)")
            #expect(set.stdout == "Set limits.earth_continuity_max_ohm to 0.5 (was 1): test forms opened from now on"
                    + " judge by it.\n")
            #expect(runRigbook(["settings", "set", "limits.rcd_trip_max_ms_type_i", "30"], home: home).status == 0)
            #expect(runRigbook(["settings", "get", "limits.earth_continuity_max_ohm"], home: home).stdout == "0.5\n")
            let listing = runRigbook(["settings", "get"], home: home).stdout
            #expect(listing.contains("[electrical test limits]\nlimits.earth_continuity_max_ohm = 0.5\n"), "\(listing)")
            #expect(listing.contains("limits.rcd_trip_max_ms_type_i = 30\n"))
            let again = runRigbookResult(["settings", "set", "limits.earth_continuity_max_ohm", "0.50"], home: home)
            #expect(again.status == 0 && again.stdout == "limits.earth_continuity_max_ohm is already 0.5; nothing"
                    + " recorded.\n", "\(again)")
            let register = try Register.openForReading(path: DataHome(root: home).registerPath)
            #expect(try register.particularsHistory(subject: Particulars.organisationUUID).count == 2)
            #expect(try register.particulars().organisation.testLimits.rcdTripMaxMsTypeI == 30)
            let verify = runRigbookResult(["verify"], home: home)
            #expect(verify.status == 0, "\(verify)")
        }

        @Test(arguments: [
            (["limits.earth_continuity_max_ohm", "12"],
             "The earth continuity limit must be at most 10 Ω: over 10 Ω an earth conductor would not carry a fault"),
            (["limits.insulation_min_mohm", "0.001"], "The insulation resistance limit must be at least 0.01 MΩ"),
            (["limits.leakage_max_ma_other", "0"], "must be a number of mA greater than 0."),
            (["limits.rcd_trip_max_ms_type_ii", "2000"], "at most 1000 ms"),
            (["limits.calibration_warning_months", "6.5"], "a whole number of months from 1 to 60"),
            (["limits.rcd_trip_max_ms_type_i", "fast"],
             "limits.rcd_trip_max_ms_type_i must be a decimal number (1000, 0.5), not fast"),
            (["limits.earth_continuity_max_ohm", "inf"], "must be a decimal number"),
            // Hostile testing: Double(String) took hexadecimal as a number.
            (["limits.earth_continuity_max_ohm", "0x1"], "must be a decimal number (1000, 0.5), not 0x1"),
            (["limits.earth_continuity_max_ohm", "1", "--employer", "Main employer"], "takes no --employer"),
        ])
        func refusals(arguments: [String], words: String) throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = home(dir)
            let result = runRigbookResult(["settings", "set"] + arguments, home: home)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains(words), "\(result)")
            #expect(result.stdout.isEmpty)
            let register = try Register.openForReading(path: DataHome(root: home).registerPath)
            #expect(try register.particularsHistory(subject: Particulars.organisationUUID).isEmpty, "nothing recorded")
        }

        @Test func jsonCarriesTheLimitsInForce() throws {
            let dir = TempDir(); defer { dir.remove() }
            let home = home(dir)
            func limits() throws -> [String: Double] {
                let json = runRigbookResult(["settings", "get", "--format", "json"], home: home)
                #expect(json.status == 0, "\(json)")
                let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
                let object = try #require(parsed as? [String: Any])
                return try #require(object["limits"] as? [String: Double])
            }
            #expect(try limits() == ["earth_continuity_max_ohm": 1, "insulation_min_mohm": 1,
                                     "leakage_max_ma_class_i": 5, "leakage_max_ma_other": 1,
                                     "rcd_trip_max_ms_type_ii": 300, "rcd_trip_max_ms_type_i": 40,
                                     "calibration_warning_months": 12])
            #expect(runRigbook(["settings", "set", "limits.leakage_max_ma_class_i", "2.5"], home: home).status == 0)
            #expect(try limits()["leakage_max_ma_class_i"] == 2.5)
        }

        @Test func helpListsTheKeys() {
            let dir = TempDir(); defer { dir.remove() }
            let help = runRigbookResult(["settings", "set", "--help"], home: dir.sub("none"))
            for key in ParticularField.limitFields.map({ "limits." + $0.rawValue }) {
                #expect(help.stdout.contains(key), "\(key) in \(help.stdout)")
            }
        }
    }
}
