import Foundation
import Testing
import RigbookCore
import RigbookStore

extension RigbookCLITests {
    /// `rigbook tests import`: a PAT tester's export through the test form's gate, all rows or none, signed.
    /// The fixtures in `Fixtures/` were written from the documented format: `pat-export.csv` as documented,
    /// `pat-export-quirks.csv` as a real download comes (BOM, CRLF, DD/MM/YYYY with times, trailing empty columns,
    /// a blank row of commas, a second header block in another order, `Status` for Pass/Fail).
    @Suite("tests import: a tester's export") struct TestsImport {
        static func fixture(_ name: String) -> String {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
        }

        /// A home with the fixture's four assets.
        static func home() -> CertificateHome {
            let home = CertificateHome()
            home.addElectrical("EL-0001", "Kettle", class: "class-1")
            home.addElectrical("EL-0002", "Drill", class: "class-2")
            home.addElectrical("EL-0003", "Extension lead 20 m", class: "extension-set")
            home.addElectrical("EL-0004", "Fan heater", class: "class-1")
            // The technicians the exports name: a key holder, and an examiner whose key the import makes.
            #expect(home.run(["keys", "new", "--examiner", "Ana Reyes"]).status == 0)
            #expect(home.run(["settings", "add", "examiner", "Ben Ode"]).status == 0)
            return home
        }

        static func tests(_ home: CertificateHome, _ tag: String) -> [[String: Any]] {
            let json = home.run(["history", tag, "--format", "json"]).stdout
            let all = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]] ?? []
            return all.filter { $0["kind"] as? String == "electrical_test" }
        }

        static func writeCSV(_ home: CertificateHome, _ text: String) throws -> String {
            let file = home.sub("export-\(UUID().uuidString).csv")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            return file
        }

        @Test func theDocumentedExportIsSavedSignedAndVerifies() throws {
            let home = Self.home()
            defer { home.remove() }
            let file = Self.fixture("pat-export.csv")
            let dry = home.run(["tests", "import", file, "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.contains("Would save 4 tests"), "\(dry)")
            #expect(Self.tests(home, "EL-0001").isEmpty)
            let saved = home.run(["tests", "import", file, "--authenticate"])
            #expect(saved.status == 0, "\(saved)")
            #expect(saved.stdout.contains("Ana Reyes (4 tests) authenticates"), "\(saved)")
            #expect(saved.stdout.contains("Saved 4 tests"), "\(saved)")
            // Site and Location Name are read (the assets exist); the retest period differing is warned about.
            #expect(saved.stderr.contains("line 5: EL-0004: the export says retest in 6 months"), "\(saved)")
            let kettle = try #require(Self.tests(home, "EL-0001").first)
            #expect(kettle["insulation_mohm"] as? String == ">99")
            #expect(kettle["earth_continuity_ohm"] as? Double == 0.12)
            #expect(kettle["result"] as? String == "pass" && kettle["technician"] as? String == "Ana Reyes")
            #expect(kettle["licence_number"] as? String == "EL-204518")
            #expect(kettle["instrument_serial"] as? String == "PT-99812")
            let lead = try #require(Self.tests(home, "EL-0003").first)
            #expect(lead["polarity"] as? String == "pass")
            let heater = try #require(Self.tests(home, "EL-0004").first)
            #expect(heater["result"] as? String == "fail")
            #expect((heater["notes"] as? String)?.contains("Earth pin loose, 1.8 Ω") == true)
            #expect((heater["notes"] as? String)?.contains("retest period: 6 months") == true)
            let verified = home.run(["verify"])
            #expect(verified.status == 0 && verified.stdout.contains("4 signatures checked"), "\(verified)")
            // The same export again is refused whole: every test is already in the register.
            let again = home.run(["tests", "import", file, "--authenticate"])
            #expect(again.status == 1 && again.stderr.contains("line 2: this test of EL-0001"), "\(again)")
            #expect(Self.tests(home, "EL-0001").count == 1)
        }

        @Test func aRealDownloadWithItsQuirksIsRead() throws {
            let home = Self.home()
            defer { home.remove() }
            let file = Self.fixture("pat-export-quirks.csv")
            let flags = ["--authenticate", "--date-format", "DD/MM/YYYY", "--calibrated", "2026-02-01"]
            // EL-0005 is not in the register: refused, and nothing saved.
            let refused = home.run(["tests", "import", file] + flags)
            #expect(refused.status == 1 && refused.stderr.contains("line 6, Asset Id: no asset is tagged EL-0005"),
                    "\(refused)")
            #expect(Self.tests(home, "EL-0001").isEmpty)
            let saved = home.run(["tests", "import", file] + flags
                                 + ["--add-assets", "--class", "extension-set", "--environment", "construction"])
            #expect(saved.status == 0, "\(saved)")
            #expect(saved.stdout.contains("Saved 3 tests") && saved.stdout.contains("added 1 asset"), "\(saved)")
            #expect(saved.stderr.contains("read past") && saved.stderr.contains("Client Name"), "\(saved)")
            let kettle = try #require(Self.tests(home, "EL-0001").first)
            #expect(kettle["test_date"] as? String == "2026-11-22")
            #expect(kettle["insulation_mohm"] as? String == ">299")
            #expect(kettle["calibration_date"] as? String == "2026-02-01")
            let drill = try #require(Self.tests(home, "EL-0002").first)
            #expect(drill["leakage_ma"] as? Double == 0.05)
            let added = try #require(Self.tests(home, "EL-0005").first)
            #expect(added["technician"] as? String == "Ben Ode" && added["result"] as? String == "fail")
            #expect(added["notes"] as? String == "Plug cracked: cut off and tagged out")
            let list = home.run(["asset", "list", "--format", "json"]).stdout
            #expect(list.contains("EL-0005"))
            let verified = home.run(["verify"])
            #expect(verified.status == 0 && verified.stdout.contains("3 signatures checked"), "\(verified)")
            let keys = home.run(["keys", "list"]).stdout
            #expect(keys.contains("Ana Reyes") && keys.contains("Ben Ode"), "\(keys)")
        }

        @Test func aFailedReadingMarkedPassIsRefusedByLineAndNothingIsSaved() throws {
            let home = Self.home()
            defer { home.remove() }
            let file = try Self.writeCSV(home, """
                Asset Id,Test Date,Pass/Fail,Person,Calibration Date,Test,Result,Unit,Status,Test,Result,Unit,Status
                EL-0002,2026-11-20,P,Ana Reyes,2026-03-01,Visual,P,,P,Insulation,60,MΩ,P
                EL-0001,2026-11-20,P,Ana Reyes,2026-03-01,Visual,P,,P,Earth Continuity,2.5,Ω,P
                EL-0004,2026-11-20,F,Ana Reyes,2026-03-01,Visual,F,,F,Earth Continuity,0.2,Ω,P

                """)
            let refused = home.run(["tests", "import", file, "--authenticate"])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("line 3, Result: A manual Pass cannot override a failed reading"),
                    "\(refused)")
            // A fail needs its comment; a Class I item needs its insulation.
            #expect(refused.stderr.contains("line 4, Notes: A failed test needs notes"), "\(refused)")
            #expect(refused.stderr.contains("line 4, Insulation (MΩ)"), "\(refused)")
            #expect(refused.stderr.contains("nothing was saved"), "\(refused)")
            // All or none: the good row on line 2 was not saved either.
            #expect(Self.tests(home, "EL-0002").isEmpty)
        }

        @Test func anUnknownTestNameOrUnitIsRefusedWithTheAcceptedOnes() throws {
            let home = Self.home()
            defer { home.remove() }
            let file = try Self.writeCSV(home, """
                Asset Id,Test Date,Pass/Fail,Person,Test,Result,Unit,Status,Test,Result,Unit,Status
                EL-0002,2026-11-20,P,Ana Reyes,Visual,P,,P,Flash Test,3,kV,P
                EL-0001,2026-11-20,P,Ana Reyes,Visual,P,,P,Earth Continuity,0.2,mΩ,P

                """)
            let refused = home.run(["tests", "import", file, "--authenticate"])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("line 2, column 9: 'Flash Test' is not a test Rigbook records; the "
                                            + "accepted names are visual inspection: visual"), "\(refused)")
            #expect(refused.stderr.contains("earth continuity in 'mΩ': write it in Ω or Ohm"), "\(refused)")
        }

        @Test func authenticationIsNeededAndTheUsageIsChecked() throws {
            let home = Self.home()
            defer { home.remove() }
            let file = Self.fixture("pat-export.csv")
            let without = home.run(["tests", "import", file])
            #expect(without.status == 64 && without.stderr.contains("--authenticate"), "\(without)")
            let format = home.run(["tests", "import", file, "--authenticate", "--date-format", "YYYY/DD/MM"])
            #expect(format.status == 64 && format.stderr.contains("--date-format"), "\(format)")
            let halfAdding = home.run(["tests", "import", file, "--authenticate", "--add-assets"])
            #expect(halfAdding.status == 64 && halfAdding.stderr.contains("--environment"), "\(halfAdding)")
            #expect(Self.tests(home, "EL-0001").isEmpty)
            let help = home.run(["help", "tests", "import"])
            #expect(help.status == 0 && help.stdout.contains("USAGE: rigbook tests import FILE.csv --authenticate"),
                    "\(help)")
        }

        @Test func aStrangerOrLookAlikeNeverSignsOrIsAddedAndAReadingWrittenOtherwiseIsTheSameTest() throws {
            let home = Self.home()
            defer { home.remove() }
            let file = try Self.writeCSV(home, """
                Asset Id,Test Date,Pass/Fail,Person,Calibration Date,Test,Result,Unit,Status,Test,Result,Unit,Status
                EL-0002,2026-11-20,P,\u{410}na Reyes,2026-03-01,Visual,P,,P,Insulation,60,MΩ,P
                \u{415}L-0001,2026-11-20,P,Ana Reyes,2026-03-01,Visual,P,,P,Insulation,60,MΩ,P

                """)
            let refused = home.run(["tests", "import", file, "--authenticate", "--add-assets", "--class", "class-2",
                                    "--environment", "construction"])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("line 2, Person:") && refused.stderr.contains("neither an examiner"),
                    "\(refused)")
            #expect(refused.stderr.contains("line 3, Asset Id:") && refused.stderr.contains("looks like"),
                    "\(refused)")
            #expect(!home.run(["keys", "list"]).stdout.contains("\u{410}na"))
            // The same test with its readings written otherwise (0.10 for 0.1, 60.0 for 60) is refused as a repeat.
            let once = try Self.writeCSV(home, """
                Asset Id,Test Date,Pass/Fail,Person,Calibration Date,Test,Result,Unit,Status,Test,Result,Unit,Status
                EL-0002,2026-11-20,P,ana reyes,2026-03-01,Visual,P,,P,Insulation,60,MΩ,F

                """)
            let saved = home.run(["tests", "import", once, "--authenticate"])
            #expect(saved.status == 0 && saved.stdout.contains("Ana Reyes (1 test)"), "\(saved)")
            #expect(saved.stderr.contains("the tester marked Insulation (MΩ) Fail"), "\(saved)")
            let again = try Self.writeCSV(home, """
                Asset Id,Test Date,Pass/Fail,Person,Calibration Date,Test,Result,Unit,Status,Test,Result,Unit,Status
                EL-0002,2026-11-20 14:05,P,Ana Reyes,2026-03-01,Visual,P,,P,Insulation,60.0,MΩ,P

                """)
            let repeated = home.run(["tests", "import", again, "--authenticate"])
            #expect(repeated.status == 1 && repeated.stderr.contains("already in the register"), "\(repeated)")
            // Someone whose only key is retired is known no more; a reading the class is not judged by, failed by
            // the tester, is said.
            let made = home.run(["keys", "new", "--examiner", "Rick Old"])
            let key = try #require(made.stdout.firstMatch(of: /fingerprint ([0-9a-f]{64})/)?.output.1)
            #expect(home.run(["keys", "retire", String(key.prefix(16)), "--reason", "left"]).status == 0)
            let later = try Self.writeCSV(home, """
                Asset Id,Test Date,Pass/Fail,Person,Calibration Date,Test,Result,Unit,Status,Test,Result,Unit,Status,\
                Test,Result,Unit,Status
                EL-0002,2026-11-22,P,Rick Old,2026-03-01,Visual,P,,P,Insulation,70,MΩ,P,Earth Continuity,5,Ω,F
                EL-0002,2026-11-23,P,Ana Reyes,2026-03-01,Visual,P,,P,Insulation,70,MΩ,P,Earth Continuity,5,Ω,F

                """)
            let retired = home.run(["tests", "import", later, "--authenticate"])
            #expect(retired.status == 1 && retired.stderr.contains("line 2, Person: Rick Old is neither"), "\(retired)")
            let anaOnly = try Self.writeCSV(home, (try String(contentsOfFile: later, encoding: .utf8))
                .replacingOccurrences(of: "Rick Old", with: "Ana Reyes")
                .replacingOccurrences(of: "11-22", with: "11-21"))
            let unjudged = home.run(["tests", "import", anaOnly, "--authenticate", "--dry-run"])
            #expect(unjudged.stderr.contains("line 3: EL-0002: the tester marked Earth continuity (Ω) Fail; a Class II "
                                             + "item is not judged by it"), "\(unjudged)")
        }

        @Test func theInstrumentTheRegisterRemembersFillsWhatTheExportLacks() throws {
            let home = Self.home()
            defer { home.remove() }
            #expect(home.run(["tests", "import", Self.fixture("pat-export.csv"), "--authenticate"]).status == 0)
            // A later download names only the instrument's serial.
            let file = try Self.writeCSV(home, """
                Asset Id,Test Date,Pass/Fail,Person,Instrument Serial,Test,Result,Unit,Status,Test,Result,Unit,Status
                EL-0002,2026-11-28,P,Ana Reyes,PT-99812,Visual,P,,P,Insulation,61,MΩ,P

                """)
            let saved = home.run(["tests", "import", file, "--authenticate", "--licence", "EL-204518"])
            #expect(saved.status == 0, "\(saved)")
            let newest = try #require(Self.tests(home, "EL-0002").first)
            #expect(newest["test_date"] as? String == "2026-11-28")
            #expect(newest["instrument_model"] as? String == "Seaward PrimeTest 250+")
            #expect(newest["calibration_date"] as? String == "2026-03-01")
            #expect(newest["licence_number"] as? String == "EL-204518")
        }

        /// One transaction: a `kill -9` while the tests are being saved leaves none of them, and no asset it was
        /// adding, and the register verifies.
        @Test func anImportKilledPartWayLeavesNothing() throws {
            let home = CertificateHome()
            defer { home.remove() }
            makeEmptyRegister(home: home.path)
            // An examiner without a key here: the import makes it, and says so, just before its transaction.
            #expect(home.run(["settings", "add", "examiner", "Ana Reyes"]).status == 0)
            var csv = "Asset Id,Test Date,Pass/Fail,Person,Calibration Date,Test,Result,Unit,Status,"
                + "Test,Result,Unit,Status,Test,Result,Unit,Status\n"
            for n in 1...6_000 {
                csv += "K-\(n),2026-11-20,P,Ana Reyes,2026-03-01,Visual,P,,P,Earth Continuity,0.1,Ω,P,"
                    + "Insulation,200,MΩ,P\n"
            }
            let file = try Self.writeCSV(home, csv)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try Binary.path())
            process.arguments = ["--home", home.path, "tests", "import", file, "--authenticate", "--add-assets",
                                 "--class", "class-1", "--environment", "construction"]
            var environment = baseEnvironment(userHome: home.sub("user-home"))
            environment["RIGBOOK_TODAY"] = fixedToday
            process.environment = environment
            let errorFile = home.sub("stderr")
            FileManager.default.createFile(atPath: errorFile, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // The technician's key is made just before the saving transaction opens: kill then.
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning, Date() < deadline,
                  !((try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "").contains("signing key") {
                usleep(1_000) // poll interval; the deadline bounds the wait
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let register = try Register.openForReading(path: home.registerPath)
            let assets = try register.assetCount()
            if process.terminationReason == .uncaughtSignal {
                #expect(assets == 0, "\(assets) assets of a killed import were kept")
            } else {
                // Finished before the kill could land: then it is all there.
                #expect(assets == 6_000)
            }
            let verified = home.run(["verify"])
            #expect(verified.status == 0, "\(verified)")
        }
    }
}
