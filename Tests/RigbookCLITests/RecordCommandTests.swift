import Foundation
import Testing
import RigbookCore
import RigbookTestSupport

extension RigbookCLITests {
    /// `rigbook record`: an inspection from a JSON file through the form's gate, authenticated on the command
    /// line and signed.
    @Suite("record: from a file") struct RecordFromAFile {
        static let today = ["RIGBOOK_TODAY": "2026-11-30"]

        static let pass = """
            {"inspection_type": "thorough_periodic", "check_marking": true, "check_cuts": true,
             "check_deformation": true, "check_fittings": true, "check_corrosion": true, "result": "pass",
             "action": "none", "inspection_date": "2026-11-30", "examination_basis": "within_12_months",
             "next_examination_by": "2027-11-30", "notes": "Recorded by the nightly job"}
            """

        static func home() -> CertificateHome {
            let home = CertificateHome()
            #expect(home.run(["sample", "--assets", "20"], env: today).status == 0)
            return home
        }

        func record(_ home: CertificateHome, _ json: String, _ extra: [String] = [],
                    tag: String = "BC-0006") throws -> RunResult {
            let file = home.sub("record-\(UUID().uuidString).json")
            try json.write(toFile: file, atomically: true, encoding: .utf8)
            return home.run(["record", tag, "--from", file, "--examiner", "Alan Hughes"] + extra, env: Self.today)
        }

        @Test func aValidRecordIsSavedSignedAndVerifies() throws {
            let home = Self.home()
            defer { home.remove() }
            let dry = try record(home, Self.pass, ["--authenticate", "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.contains("Nothing was saved"), "\(dry)")
            let saved = try record(home, Self.pass, ["--authenticate"])
            #expect(saved.status == 0, "\(saved)")
            #expect(saved.stdout.contains("Alan Hughes authenticates this thorough examination (periodic) of BC-0006"))
            let history = home.run(["history", "BC-0006", "--format", "json"], env: Self.today).stdout
            #expect(history.contains("Recorded by the nightly job"))
            let verified = home.run(["verify"], env: Self.today)
            #expect(verified.status == 0 && verified.stdout.contains("signatures checked"), "\(verified)")
            let retried = try record(home, Self.pass, ["--authenticate"])
            #expect(retried.status == 1 && retried.stderr.contains("already in the register as #"), "\(retried)")
            // Exactly one record came in (the dry run and the retry saved nothing).
            #expect(history.components(separatedBy: "Recorded by the nightly job").count == 2)
        }

        @Test func authenticationIsNeverReadFromTheFileAndIsNeeded() throws {
            let home = Self.home()
            defer { home.remove() }
            let without = try record(home, Self.pass)
            #expect(without.status == 64 && without.stderr.contains("--authenticate"), "\(without)")
            let withTick = Self.pass.replacingOccurrences(of: "\"result\"", with: "\"confirmed\": true, \"result\"")
            let ticked = try record(home, withTick, ["--authenticate"])
            #expect(ticked.status == 1 && ticked.stderr.contains("confirmed: authentication"), "\(ticked)")
            let file = home.sub("pass.json")
            try Self.pass.write(toFile: file, atomically: true, encoding: .utf8)
            let stranger = home.run(["record", "BC-0006", "--from", file, "--examiner", "Nobody", "--authenticate"],
                                    env: Self.today)
            #expect(stranger.status == 1 && stranger.stderr.contains("not an examiner"), "\(stranger)")
            let help = home.run(["help", "record"])
            #expect(help.status == 0 && help.stdout.contains("USAGE: rigbook record TAG --from FILE.json|- --examiner"),
                    "\(help)")
        }

        @Test func everyGateRefusalIsListedAndNothingIsWritten() throws {
            let home = Self.home()
            defer { home.remove() }
            let before = home.run(["history", "BC-0006", "--format", "json"], env: Self.today).stdout
            let defect = Self.pass.replacingOccurrences(of: "\"pass\"", with: "\"defect_to_be_remedied\"")
            let refused = try record(home, defect, ["--authenticate"])
            #expect(refused.status == 1, "\(refused)")
            for field in ["defect_description", "remedy_deadline_set", "repair_particulars", "remedy_particulars"] {
                #expect(refused.stderr.contains("rigbook: \(field): "), "\(field): \(refused.stderr)")
            }
            let unknown = try record(home, "{\"colour\": \"red\", \"record_hash\": \"x\"}", ["--authenticate"])
            #expect(unknown.stderr.contains("colour: not a key")
                    && unknown.stderr.contains("record_hash: the register"), "\(unknown)")
            let mistyped = try record(home, "{\"check_cuts\": \"yes\"}", ["--authenticate"])
            #expect(mistyped.status == 1 && mistyped.stderr.contains("check_cuts"), "\(mistyped)")
            #expect(home.run(["history", "BC-0006", "--format", "json"], env: Self.today).stdout == before)
        }

        @Test func anAmendmentGoesThroughTheAmendmentRules() throws {
            let home = Self.home()
            defer { home.remove() }
            let saved = try record(home, Self.pass, ["--authenticate"])
            let number = try #require(saved.stdout.firstMatch(of: /report ([0-9A-F]{8}-[0-9]{6})/)?.output.1)
            let noReason = try record(home, Self.pass, ["--authenticate", "--amends", String(number)])
            #expect(noReason.status == 1 && noReason.stderr.contains("amendment_reason"), "\(noReason)")
            // The same record is no amendment; one that corrects the notes is.
            let amended = Self.pass.replacingOccurrences(of: "Recorded by the nightly job", with: "Recorded by hand")
                .replacingOccurrences(of: "\"notes\"", with: "\"amendment_reason\": \"Notes mistyped\", \"notes\"")
            let fixed = try record(home, amended, ["--authenticate", "--amends", String(number)])
            #expect(fixed.status == 0 && fixed.stdout.contains("amending #"), "\(fixed)")
        }

        /// An electrical asset's test, shaped as `history` writes one, through the test form's gate.
        @Test func aTestOfAnElectricalAssetGoesThroughTheTestGate() throws {
            let home = CertificateHome()
            defer { home.remove() }
            home.addElectrical("EL-0001", "Kettle")
            #expect(home.run(["keys", "new", "--examiner", "Ana Reyes"]).status == 0)
            func recordTest(_ json: String, _ extra: [String] = ["--authenticate"]) throws -> RunResult {
                let file = home.sub("test-\(UUID().uuidString).json")
                try json.write(toFile: file, atomically: true, encoding: .utf8)
                return home.run(["record", "EL-0001", "--from", file, "--examiner", "ana reyes"] + extra)
            }
            let failedAsPass = """
                {"test_date": "2026-11-29", "visual": "pass", "earth_continuity_ohm": 2.4, "insulation_mohm": 50,
                 "result_choice": "pass", "calibration_date": "2026-03-01"}
                """
            let refused = try recordTest(failedAsPass)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("rigbook: result_choice: A manual Pass cannot override a failed reading"),
                    "\(refused)")
            #expect(refused.stderr.contains("rigbook: notes: A failed test needs notes"), "\(refused)")
            let made = try recordTest(#"{"result": "pass", "test_uuid": "x", "authenticated": true}"#)
            #expect(made.stderr.contains("result: the register works it out from the readings")
                    && made.stderr.contains("test_uuid: the register makes it")
                    && made.stderr.contains("authenticated: authentication is given on the command line"), "\(made)")
            let good = failedAsPass.replacingOccurrences(of: "2.4", with: "0.2")
                .replacingOccurrences(of: "50", with: "\">299\"")
            #expect(try recordTest(good, []).status == 64)
            let saved = try recordTest(good)
            #expect(saved.status == 0 && saved.stdout.contains("Ana Reyes authenticates this periodic test of "
                                                               + "EL-0001 on 2026-11-29: Pass"), "\(saved)")
            let history = home.run(["history", "EL-0001", "--format", "json"]).stdout
            #expect(history.contains("\"insulation_mohm\":\">299\""), "\(history)")
            #expect(history.contains("\"technician\":\"Ana Reyes\""), "\(history)")
            // A script's retry is refused; readings of 0 and 1 are numbers, not booleans.
            let retried = try recordTest(good)
            #expect(retried.status == 1 && retried.stderr.contains("already in the register as test #"), "\(retried)")
            let edge = """
                {"test_date": "2026-11-28", "visual": "pass", "earth_continuity_ohm": 0, "insulation_mohm": 1,
                 "calibration_date": "2026-03-01"}
                """
            let edgeSaved = try recordTest(edge)
            #expect(edgeSaved.status == 0, "\(edgeSaved)")
            let verified = home.run(["verify"])
            #expect(verified.status == 0 && verified.stdout.contains("2 signatures"), "\(verified)")
            // A dry run on a home without a register makes none.
            let empty = CertificateHome()
            defer { empty.remove() }
            let file = home.sub("edge.json")
            try edge.write(toFile: file, atomically: true, encoding: .utf8)
            let dry = empty.run(["record", "EL-0001", "--from", file, "--examiner", "Ana Reyes", "--dry-run"])
            #expect(dry.status == 1 && !FileManager.default.fileExists(atPath: empty.registerPath), "\(dry)")
        }
    }
}
