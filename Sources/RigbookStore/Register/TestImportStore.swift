import Foundation
import RigbookCore

/// The register's part of `rigbook tests import`: each row read from a tester's export (`TestImport`) finds its
/// asset (or one to add), takes what the export lacks from the instrument the register remembers, and goes through
/// the test form's gate; then every test is saved, signed by its technician, in one transaction, or none is.
public struct TestImportPlan: Sendable {
    public struct Test: Sendable {
        public var line: Int
        public var tag: String
        public var test: ValidatedTest
    }

    public var tests: [Test]
    /// The assets `--add-assets` adds, before their tests.
    public var newAssets: [Asset]
    /// What the person should know but does not stop the import (`line 7: …`).
    public var warnings: [String]

    /// The technicians who sign, each with how many tests.
    public var technicians: [(name: String, tests: Int)] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for test in tests {
            let name = test.test.values.technician
            if counts[name] == nil { order.append(name) }
            counts[name, default: 0] += 1
        }
        return order.map { ($0, counts[$0] ?? 0) }
    }
}

extension Register {
    /// How assets the export names and the register lacks are added: refused when nil.
    public struct NewTestedAssets: Sendable {
        public var equipmentClass: ElectricalClass
        public var environment: ElectricalEnvironment

        public init(equipmentClass: ElectricalClass, environment: ElectricalEnvironment) {
            self.equipmentClass = equipmentClass
            self.environment = environment
        }
    }

    /// Every row's test checked against the register and the gate, or every problem found (nothing is written).
    public func planTestImport(_ rows: [TestImport.Row], adding: NewTestedAssets?,
                               today: CalendarDate) throws(RegisterError)
        -> Result<TestImportPlan, AssetImport.Problems> {
        let limits = try particulars().organisation.testLimits
        var problems: [AssetImport.Problem] = []
        var plan = TestImportPlan(tests: [], newAssets: [], warnings: [])
        var assets: [String: Asset] = [:]
        var added: Set<UUID> = []
        var instruments = InstrumentMemory(register: self)
        var seen: [TestIdentity: Int] = [:]
        var stored: [UUID: Set<TestIdentity>] = [:]
        let known = try knownPeople()
        // The register's tags and those this import adds, for a tag that is no asset's: one that looks like another
        // (`ЕL-1` in Cyrillic beside `EL-1`) is refused, as `asset add` refuses it.
        var taken: TakenTags<Int?>?
        for row in rows {
            func problem(_ column: String?, _ message: String) {
                problems.append(AssetImport.Problem(line: row.line, column: column, message))
            }
            let key = Tags.key(row.assetTag)
            var asset = assets[key]
            if asset == nil {
                if let found = try self.asset(tag: row.assetTag)?.asset {
                    asset = found
                } else {
                    if taken == nil { taken = try registerTags() }
                    if let (clash, line) = taken?.clash(with: row.assetTag) {
                        problem("Asset Id", clash.refusal(of: row.assetTag,
                                                          place: line.map { "on line \($0)" } ?? "in the register"))
                    } else if let invisible = Tags.invisibleCharacterProblem(row.assetTag) {
                        problem("Asset Id", "no asset has that tag. \(invisible)")
                    } else if let adding {
                        asset = newAsset(row, adding, today: today, problems: &problems)
                        if let made = asset {
                            plan.newAssets.append(made)
                            added.insert(made.uuid)
                            taken?.insert(made.tag, holder: row.line)
                        }
                    } else {
                        problem("Asset Id", "no asset is tagged \(VisibleText.make(row.assetTag)); --add-assets "
                                + "--class CLASS --environment ENVIRONMENT adds the assets an export names")
                    }
                }
                assets[key] = asset
            }
            // Who vouches is someone the register knows, spelled as it spells them: never a new identity by a typo.
            let named = row.values.technician
            guard let person = try knownPerson(named, among: known) else {
                let listed = known.isEmpty ? "" : " (known: \(known.joined(separator: ", ")))"
                problem("Person", "\(VisibleText.make(named)) is neither an examiner of this register nor holds a key "
                        + "in it\(listed); make their key first with `rigbook keys new --examiner NAME`")
                continue
            }
            guard let asset else { continue }
            guard let electrical = asset.electrical else {
                problem("Asset Id", "\(asset.tag) is lifting equipment: it is examined, not tested")
                continue
            }
            if let retired = asset.retirement {
                problem("Asset Id", "\(asset.tag) was retired on \(retired.on.iso) (\(retired.how)): it takes no tests")
                continue
            }
            var values = row.values
            values.technician = person
            if let remembered = try instruments.fill(&values) {
                plan.warnings.append("line \(row.line): \(remembered)")
            }
            if let months = row.retestMonths, months != asset.intervalMonths, !added.contains(asset.uuid) {
                // Kept with the record, in its notes; the asset's interval is changed only by an asset edit.
                let said = "The tester's retest period: \(months) months (the register's interval is "
                    + "\(asset.intervalMonths))."
                values.notes = values.notes.isEmpty ? said : values.notes + "\n" + said
                if values.notes.count > TestGate.maxNotes {
                    problem("Comments", "with the tester's retest period kept after it, the notes would be longer "
                            + "than \(TestGate.maxNotes) characters: shorten the comment")
                    continue
                }
                plan.warnings.append("line \(row.line): \(asset.tag): the export says retest in \(months) months, the "
                                     + "register every \(asset.intervalMonths); kept in the test's notes, the interval "
                                     + "unchanged (`rigbook asset edit` changes it)")
            }
            let context = TestGate.Context(assetUUID: asset.uuid, equipmentClass: electrical.equipmentClass,
                                           commissioned: asset.commissioned, today: today,
                                           sessionID: DraftIdentity.testSessionID(assetUUID: asset.uuid),
                                           limits: limits)
            guard case .success(let test) = TestGate.validate(values, context) else {
                for (field, message) in TestGate.evaluate(values, context).problems {
                    problem(field.label, field == .calibrationAcknowledged
                            ? message.replacingOccurrences(of: " Tick that you have noted it.", with: "")
                                + " Pass --calibration-noted once you have noted it."
                            : field == .result ? message + " (the row's Pass/Fail)" : message)
                }
                continue
            }
            // A reading the tester failed that the item's class is not judged by is kept as recorded, and said.
            for (field, said) in row.testerSaid.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            where said == .fail && !test.verdicts.contains(where: { $0.field == field }) {
                plan.warnings.append("line \(row.line): \(asset.tag): the tester marked \(field.label) Fail; a "
                                     + "\(electrical.equipmentClass.label) item is not judged by it, so it is kept "
                                     + "but does not decide the result")
            }
            for verdict in test.verdicts where verdict.outcome == .pass || verdict.outcome == .fail {
                guard let said = row.testerSaid[verdict.field], (said == .pass) != (verdict.outcome == .pass) else {
                    continue
                }
                plan.warnings.append("line \(row.line): \(asset.tag): the tester marked \(verdict.field.label) "
                                     + "\(said.label); by the register's limits it is \(verdict.outcome.rawValue) "
                                     + "(\(verdict.text))")
            }
            // The same test twice, in the file or already in the register: an export imported again.
            let identity = TestIdentity(test.values, asset: asset.uuid)
            if let earlier = seen[identity] {
                problem(nil, "the same test of \(asset.tag) as line \(earlier)")
                continue
            }
            seen[identity] = row.line
            if stored[asset.uuid] == nil {
                stored[asset.uuid] = Set(try tests(assetUUID: asset.uuid).map {
                    TestIdentity($0.values, asset: asset.uuid)
                })
            }
            if stored[asset.uuid]?.contains(identity) == true {
                problem(nil, "this test of \(asset.tag) on \(test.testDate.iso) by \(test.values.technician) is "
                        + "already in the register (the export imported before?)")
                continue
            }
            plan.tests.append(TestImportPlan.Test(line: row.line, tag: asset.tag, test: test))
        }
        return problems.isEmpty ? .success(plan) : .failure(AssetImport.Problems(items: problems))
    }

    /// Every tag of the register, for the look-alike check of tags an import adds.
    private func registerTags() throws(RegisterError) -> TakenTags<Int?> {
        try perform {
            var tags = TakenTags<Int?>()
            let statement = try db.prepare("SELECT tag FROM assets")
            while try statement.step() { tags.insert(statement.text(0), holder: nil) }
            return tags
        }
    }

    /// The asset `--add-assets` makes of a row: its tag, description, class (the export's, else the flag's), the
    /// environment given, and the tester's retest period as its interval (else the environment's).
    private func newAsset(_ row: TestImport.Row, _ adding: NewTestedAssets, today: CalendarDate,
                          problems: inout [AssetImport.Problem]) -> Asset? {
        let cells = [
            "tag": row.assetTag, "name": row.description.isEmpty ? row.assetTag : row.description,
            "location": row.location,
            "equipment_class": row.equipmentClass.isEmpty ? adding.equipmentClass.rawValue : row.equipmentClass,
            "environment": adding.environment.rawValue, "interval_months": row.retestMonths.map(String.init) ?? "",
            // A period other than the environment's is the technician's, who set it on the tester.
            "interval_reason": row.retestMonths == nil ? "" : "the retest period the technician set on the tester",
        ]
        let (asset, found) = AssetImport.electricalAsset(cells, line: row.line, today: today)
        let names = ["tag": "Asset Id", "name": "Asset Description", "equipment_class": "Asset Class",
                     "location": "Location Name", "interval_months": "Retest (Months)",
                     "interval_reason": "Retest (Months)"]
        problems += found.map { AssetImport.Problem(line: $0.line, column: $0.column.map { names[$0] ?? $0 },
                                                    "adding \(row.assetTag): " + $0.message) }
        return asset
    }

    /// Saves a checked import: its new assets, then every test on the hash chain signed by its technician's
    /// signer, each asset's summary folded again, in one transaction. A signer missing for a technician, a key
    /// not held or retired, a tag or test that another process saved meanwhile: nothing is saved.
    @discardableResult
    public func importTests(_ plan: TestImportPlan, signers: [String: RecordSigner],
                            saved: SaveStamp = SaveStamp()) throws(RegisterError) -> [Int64] {
        try perform { try db.withRoomForLargeWrite(cacheMiB: 64) {
            defer {
                db.signer = nil
                db.pendingSignatures = []
            }
            return try db.transaction {
                for signer in signers.values { try requireSigning(signer) }
                if !plan.newAssets.isEmpty {
                    let statement = try db.prepare(AssetColumns.insertSQL)
                    try HashChain.holdingHead(db) {
                        for asset in plan.newAssets {
                            if try !rows(sharingKeyWith: asset.tag).isEmpty {
                                throw RegisterError.importRefused(["\(asset.tag): added by another process meanwhile; "
                                                                   + "import again"])
                            }
                            try insertAsset(statement, asset, summary: .empty)
                        }
                    }
                }
                var ids: [Int64] = []
                ids.reserveCapacity(plan.tests.count)
                // Checked again under the write lock: another import of the same file may have saved meanwhile.
                var stored: [UUID: Set<TestIdentity>] = [:]
                var repeated: [String] = []
                for planned in plan.tests {
                    let asset = planned.test.assetUUID
                    if stored[asset] == nil {
                        stored[asset] = Set(try tests(assetUUID: asset).map { TestIdentity($0.values, asset: asset) })
                    }
                    if stored[asset]?.contains(TestIdentity(planned.test.values, asset: asset)) == true {
                        repeated.append("line \(planned.line): this test of \(planned.tag) was saved meanwhile "
                                        + "(another import of the same export?)")
                    }
                }
                guard repeated.isEmpty else { throw RegisterError.importRefused(repeated) }
                for planned in plan.tests {
                    guard let signer = signers[planned.test.values.technician] else {
                        throw RegisterError.writeFailed("no key signs for \(planned.test.values.technician): nothing "
                                                        + "was saved")
                    }
                    db.signer = signer
                    ids.append(try insertTestInTransaction(planned.test, saved: saved))
                }
                return ids
            }
        } }
    }
}

extension Register {
    /// The id of a test of the asset already in the register that is the same test as `values` (the same day, who,
    /// and every reading): a script's retry, refused rather than saved twice.
    public func sameTest(as values: TestValues, assetUUID: UUID) throws(RegisterError) -> Int64? {
        let identity = TestIdentity(values, asset: assetUUID)
        return try tests(assetUUID: assetUUID).first { TestIdentity($0.values, asset: assetUUID) == identity }?.id
    }
}

/// What makes two tests the same test: the asset, the day, who, and every reading and observation as written.
struct TestIdentity: Hashable {
    var asset: UUID
    var values: [String]

    init(_ v: TestValues, asset: UUID) {
        self.asset = asset
        // A reading by its value: a spreadsheet that saved 0.10 as 0.1 has not made another test.
        func reading(_ text: String) -> String {
            if let bound = TestGate.overRange(text) { return ">" + ExportValue.number(bound).csv }
            return NumberText.decimal(text).map { ExportValue.number($0).csv } ?? text
        }
        values = [v.testDate, v.technician.lowercased()].map { $0.trimmingCharacters(in: .whitespaces) }
            + [v.earthContinuityOhm, v.insulationMOhm, v.leakageMA, v.rcdTripTimeMs, v.loadCurrentA].map(reading)
            + [v.visual?.rawValue ?? "", v.polarity?.rawValue ?? "", v.rcdPushButton?.rawValue ?? ""]
    }
}

/// The instrument particulars the register remembers: a test that names an instrument's serial and lacks its model
/// or calibration date takes them from the newest test before it with that instrument (the same model, when the
/// row names one: two makers' testers may share a serial).
struct InstrumentMemory {
    let register: Register
    private var known: [String: [(date: String, model: String, calibrated: String)]] = [:]

    init(register: Register) { self.register = register }

    /// Fills what it can; returns what was taken and from where, for the person to see, or nil.
    mutating func fill(_ v: inout TestValues) throws(RegisterError) -> String? {
        let serial = v.instrumentSerial.trimmingCharacters(in: .whitespaces)
        guard !serial.isEmpty, v.instrumentModel.isEmpty || v.calibrationDate.isEmpty else { return nil }
        if known[serial] == nil { known[serial] = try register.instrumentTests(serial: serial) }
        let date = v.testDate, model = v.instrumentModel.trimmingCharacters(in: .whitespaces)
        guard let newest = known[serial]?.first(where: {
            $0.date <= date && (model.isEmpty || $0.model.lowercased() == model.lowercased())
        }) else { return nil }
        var taken: [String] = []
        if v.instrumentModel.isEmpty {
            v.instrumentModel = newest.model
            taken.append("model \(VisibleText.make(newest.model))")
        }
        if v.calibrationDate.isEmpty, newest.calibrated <= date {
            v.calibrationDate = newest.calibrated
            taken.append("calibration date \(newest.calibrated)")
        }
        guard !taken.isEmpty else { return nil }
        return "instrument \(VisibleText.make(serial)): \(taken.joined(separator: " and ")) taken from the register's "
            + "test of \(newest.date) with it"
    }
}

extension Register {
    /// The tests made with an instrument that name its calibration, newest first: their date, model and
    /// calibration date.
    func instrumentTests(serial: String) throws(RegisterError) -> [(date: String, model: String, calibrated: String)] {
        try perform {
            try db.withKept("""
                SELECT test_date, instrument_model, calibration_date FROM electrical_tests
                WHERE instrument_serial = ? AND calibration_date <> '' ORDER BY test_date DESC, id DESC
                """, [.text(serial)]) { s in
                var found: [(String, String, String)] = []
                while try s.step() { found.append((s.text(0), s.text(1), s.text(2))) }
                return found
            }
        }
    }
}
