import Foundation
import RigbookCore

/// A realistic, deterministic register: the same seed, count and day always give the same assets
/// and histories. About one asset in five is an electrical item with its tests (`SampleTestAndTag.swift`), so
/// both halves of the register show. Every record goes through its gate (the save gate, the test gate), exactly
/// like a typed one.
public struct SampleData {
    public let count: Int
    public let seed: UInt64
    public let today: CalendarDate

    public init(count: Int, seed: UInt64, today: CalendarDate) {
        self.count = count
        self.seed = seed
        self.today = today
    }

    /// When each asset is added (the clock: the one thing of a sample its seed does not decide); a test gives one
    /// time to two loads to compare them whole.
    var addedAt: @Sendable () -> String = { Timestamp.now() }

    /// Builds the sample in chunks so memory stays flat, drawn, hashed and signed, and written on three threads, in
    /// one transaction (`Register.bulkLoad`; one every 20,000 assets when another connection has the register open).
    public func load(into register: Register, progress: (Int) -> Void = { _ in }) throws(RegisterError) {
        try load(into: register, rowByRow: false, progress: progress)
    }

    /// `load`, each row through the register's triggers when `rowByRow` (a test compares the two ways).
    func load(into register: Register, rowByRow: Bool, progress: (Int) -> Void = { _ in }) throws(RegisterError) {
        // Particulars someone already set (the set-up screen before `S`) are kept: the sample's go only where the
        // register still has what a new register starts with.
        let current = try register.particulars()
        for change in Self.particulars.changes
        where current.current(of: change).map({ $0 == Particulars.initial.current(of: change) }) ?? true {
            try register.record(change, stamp: SaveStamp(savedAt: today.iso + "T08:00:00.000Z", operatorName: "sample"))
        }
        let signers = try sampleSigners(register)
        do {
            try register.bulkLoading {
                if try rowByRow || !loadInBulk(register, signers: signers, progress: progress) {
                    try loadChunks(into: register, signers: signers, progress: progress)
                }
            }
        }
        catch let error as RegisterError { throw error }
        catch { throw RegisterError.writeFailed("\(error)") }
    }

    /// The last year's records are signed with the sample examiners' keys; older ones are from before keys.
    private func signer(_ signers: [String: RecordSigner]) -> @Sendable (String, CalendarDate) -> RecordSigner? {
        let keysSince = today.addingMonths(-12)
        return { examiner, date in date >= keysSince ? signers[examiner] : nil }
    }

    /// Stamped with the record's own date, not the clock: the same seed gives the same register.
    private var saved: @Sendable (CalendarDate) -> SaveStamp {
        { [today] date in SaveStamp(savedAt: date.iso + "T16:00:00.000Z", operatorName: "sample", today: today) }
    }

    /// The sample through `Register.bulkLoad`; false, having written nothing, when the register has a trigger that
    /// load does not stand in for.
    private func loadInBulk(_ register: Register, signers: [String: RecordSigner],
                            progress: (Int) -> Void) throws(RegisterError) -> Bool {
        // Small chunks (500 assets, some 12 MB of rows): each of the three threads holds one and one made ahead.
        let source = SampleChunks(self, size: 500)
        // Record uuids come from a generator of their own, so the records drawn from the assets' stay the same.
        var recordUUIDs = SplitMix64(seed: ~seed)
        return try register.bulkLoad({ try source.next() }, addedAt: addedAt, saved: saved,
                                     recordUUID: { recordUUIDs.uuid() }, signer: signer(signers), progress: progress)
    }

    /// Each sample examiner's and technician's key, made from the seed and marked as a sample key in the register (a
    /// register that has them already keeps them).
    private func sampleSigners(_ register: Register) throws(RegisterError) -> [String: RecordSigner] {
        let held = Set(try register.examinerKeys().map(\.fingerprint))
        var signers: [String: RecordSigner] = [:]
        for name in Self.inspectors.map(\.0) + Self.technicianNames {
            let key: SigningKey
            do {
                let seedBytes = Array(try HashChain.sha256("rigbook sample key \(seed) \(name)").utf8.prefix(32))
                key = try SigningKey.sample(seed: seedBytes)
            } catch { throw RegisterError.writeFailed("the sample keys could not be made: \(error)") }
            if !held.contains(key.publicKey.fingerprint) {
                try register.addKey(key.publicKey, examiner: name, sample: true,
                                    stamp: SaveStamp(savedAt: today.addingMonths(-12).iso + "T08:00:00.000Z",
                                                     operatorName: "sample"))
            }
            signers[name] = RecordSigner(key: key, examiner: name)
        }
        return signers
    }

    private func loadChunks(into register: Register, signers: [String: RecordSigner],
                            progress: (Int) -> Void) throws(RegisterError) {
        // Record uuids come from a generator of their own, so the records drawn from the assets' stay the same.
        var recordUUIDs = SplitMix64(seed: ~seed)
        // The next chunk is made (drawn, through the gates, its particulars written) on a second core while this one
        // is written: the writing is in order on this thread, so the register is the same as one thread makes.
        let source = SampleChunks(self, size: 20_000)
        let chunks = MadeAhead { try source.next() }
        defer { chunks.stop() }
        var start = 0
        let signer = signer(signers)
        while let batch = try chunks.next() {
            try register.load(batch, addedAt: addedAt, saved: saved, recordUUID: { recordUUIDs.uuid() },
                              signer: signer)
            start += batch.items.count
            progress(start)
        }
    }

    static let locations = ["Quay 1", "Quay 2", "Quay 3", "Bay A", "Bay B", "Workshop", "Rigging store",
                                    "Yard", "Platform North", "Platform South", "Van 12", "Van 17", "仓库 2"]
    private static let manufacturers = ["Crosby", "Gunnebo", "SpanSet", "Yale", "Tractel", "William Hackett",
                                        "Pewag", "Columbus McKinnon", "Lifting Gear Direct", "杭州起重"]
    private static let inspectors: [(String, String)] = [
        ("Alan Hughes", "LEEA-104233"), ("Priya Natarajan", "LEEA-118870"), ("Tom Okafor", "IMechE-5521"),
        ("王建国", "CSEI-2019-0447"), ("Maria Costa", "LEEA-120915"),
    ]
    /// The sample's particulars: an examining organisation, its examiners, and the main employer and site
    /// (with the fixed identities every register starts with) given names and addresses.
    static let particulars: Particulars = {
        var p = Particulars.initial
        p.apply(.organisation(ExaminingOrganisation(name: "Northgate Lifting Examinations Ltd",
                                                    address: "Unit 4, Dock Road\nBirkenhead\nCH41 1AA")))
        p.apply(.employer(Employer(uuid: Particulars.mainEmployerUUID, name: "Mersey Quay Services Ltd",
                                   address: "Alexandra Dock Office\nRegent Road\nLiverpool\nL20 1ES")))
        p.apply(.site(Site(uuid: Particulars.mainSiteUUID, employerUUID: Particulars.mainEmployerUUID,
                           name: "Alexandra Dock", address: "Alexandra Dock, Regent Road\nLiverpool\nL20 1ES")))
        for (index, (name, certificate)) in inspectors.enumerated() {
            let uuid = UUID(uuidString: "5249C0DE-5A4D-4000-8000-00000000000\(index + 1)")!
            p.apply(.examiner(Examiner(uuid: uuid, name: name, qualification: certificate)))
        }
        return p
    }()

    private static let prefixes: [EquipmentType: String] = [
        .webSling: "WS", .roundSling: "RS", .chainSling: "CS", .wireRopeSling: "WR", .shackle: "SH",
        .eyebolt: "EB", .hook: "HK", .chainBlock: "CB", .leverHoist: "LH", .beamClamp: "BC",
        .spreaderBeam: "SB", .other: "OT",
    ]
    private static let defects = ["Sleeve abraded over 40 mm near the eye", "Latch spring weak on the top hook",
                                  "Two broken wires in one lay length", "Surface rust on the pin thread",
                                  "Stitching cut at the label", "Link elongated beyond 5 %"]

    func makeAsset(number: Int, random: inout SplitMix64)
        -> (asset: Asset, records: [ValidatedInspection], tests: [ValidatedTest]) {
        let type = EquipmentType.allCases[random.below(EquipmentType.allCases.count)]
        let liftsPersons = random.chance(0.04)
        let interval = type.defaultIntervalMonths(liftsPersons: liftsPersons)
        let wll = [500.0, 1000, 1500, 2000, 3000, 5000, 8000, 10000, 12500][random.below(9)]
        let periods = random.below(8) // thorough examinations so far (about five records an asset in all)
        // Commissioned `periods` intervals ago plus part of one more, so the next due date spreads over
        // the coming interval; a few run late to make overdue items.
        var commissioned = today.addingMonths(-interval * periods).addingDays(-random.below(interval * 30))
        if random.chance(0.06) { commissioned = commissioned.addingDays(-(interval * 30 + random.below(60))) }
        let manufactured = random.chance(0.8) ? commissioned.addingDays(-random.below(400) - 20) : nil
        let length: Double? = type.isAccessory && type != .shackle && type != .eyebolt && type != .hook
            ? Double(1 + random.below(12)) / 2 : nil
        let asset = Asset(
            uuid: random.uuid(),
            tag: tag(Self.prefixes[type]!, number),
            name: "\(wll >= 1000 ? "\(Int(wll / 1000)) t" : "\(Int(wll)) kg") \(type.label.lowercased())"
                + (length.map { " \($0.formatted()) m" } ?? ""),
            type: type, wllKg: wll, lengthM: length,
            location: Self.locations[random.below(Self.locations.count)],
            manufacturer: Self.manufacturers[random.below(Self.manufacturers.count)],
            serialNumber: "SN\(100_000 + random.below(900_000))",
            manufactured: manufactured,
            commissioned: random.chance(0.02) ? nil : commissioned,
            intervalMonths: interval, liftsPersons: liftsPersons)

        var records: [ValidatedInspection] = []
        for period in 1...max(1, periods) where periods > 0 {
            let due = commissioned.addingMonths(interval * period)
            let date = min(today, due.addingDays(-random.below(25)))
            let isLast = period == periods
            if random.chance(0.5) {
                // A pre-use check between examinations: never moves the due date.
                let checkDate = date.addingDays(-random.below(60) - 5)
                if checkDate > commissioned,
                   let record = makeRecord(asset, .preUse, on: checkDate, final: false, &random) {
                    records.append(record)
                }
            }
            let previous = records.last { $0.values.inspectionType.isThorough }?.inspectionDate
            if let record = makeRecord(asset, period == 1 ? .thoroughInitial : .thoroughPeriodic, on: date,
                                       final: isLast, previousThorough: previous, &random) {
                records.append(record)
            }
        }
        return (asset, records, [])
    }

    /// "WS-0042", "PT-000187": the number padded to the register's size.
    func tag(_ prefix: String, _ number: Int) -> String {
        "\(prefix)-\(String(number).leftPadded(to: count >= 10_000 ? 6 : 4))"
    }

    private func makeRecord(_ asset: Asset, _ type: InspectionType, on date: CalendarDate, final: Bool,
                            previousThorough: CalendarDate? = nil, _ random: inout SplitMix64) -> ValidatedInspection? {
        let (name, certificate) = Self.inspectors[random.below(Self.inspectors.count)]
        var values = InspectionValues(inspectionType: type, inspectorName: name, certificationNumber: certificate,
                                      checkMarking: true, checkCuts: true, checkDeformation: true,
                                      checkFittings: true, checkCorrosion: true, result: .pass,
                                      inspectionDate: date.iso, confirmed: true)
        let roll = random.below(1000)
        if final && roll < 15 {
            values.result = .failDangerous
            values.checkDeformation = false
            values.action = random.chance(0.5) ? .quarantine : .withdraw
            values.defectDescription = Self.defects[random.below(Self.defects.count)]
            values.repairParticulars = "Replace before further use."
        } else if final && roll < 60 {
            values.result = .defectToBeRemedied
            values.checkCuts = false
            values.action = .repair
            values.defectDescription = Self.defects[random.below(Self.defects.count)]
            values.remedyDeadlineSet = true
            values.remedyDeadline = date.addingDays(7 + random.below(45)).iso
            values.repairParticulars = "Repair or renew the damaged part."
            values.remedyParticulars = "Repair by a competent person, then re-examine."
        } else if roll < 160 {
            values.result = .passWithObservations
            values.action = .monitor
            values.defectDescription = Self.defects[random.below(Self.defects.count)]
            values.notes = "Re-check at next examination."
        }
        let sessionID = "sample-\(seed)-\(asset.uuid.lowercasedText)-\(type.rawValue)-\(date.iso)"
        var particulars = Self.particulars.report(assetUUID: asset.uuid, examinerName: name)
        particulars.previousThoroughExamination = previousThorough?.iso
        let context = SaveGate.Context(asset: asset, today: today, sessionID: sessionID, particulars: particulars)
        return try? SaveGate.validate(values, context: context).get()
    }
}

/// A small, fast, seedable generator (SplitMix64), so sample registers are reproducible everywhere.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) < p * 1_000_000 }

    mutating func uuid() -> UUID {
        let a = next(), b = next()
        let bytes = withUnsafeBytes(of: (a.bigEndian, b.bigEndian)) { Array($0) }
        var t = (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], (bytes[7] & 0x0F) | 0x40,
                 (bytes[8] & 0x3F) | 0x80, bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
        t.6 = bytes[6]
        return UUID(uuid: t)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

/// The sample's assets in chunks, in order, each ready for `Register.load`. Used by one thread at a time.
final class SampleChunks: @unchecked Sendable {
    private let sample: SampleData
    private var random: SplitMix64
    // Electrical items are the last numbers and draw from a generator of their own: the lifting assets before
    // them are drawn exactly as a register of lifting equipment alone drew them.
    private var electricalRandom: SplitMix64
    private let lifting: Int
    private var start = 0
    /// Assets a chunk: the same register whatever the size (the generators run on from chunk to chunk).
    private let size: Int

    init(_ sample: SampleData, size: Int) {
        self.sample = sample
        self.size = size
        random = SplitMix64(seed: sample.seed)
        electricalRandom = SplitMix64(seed: sample.seed ^ SampleData.electricalSeed)
        lifting = sample.count - SampleData.electricalCount(of: sample.count)
    }

    /// The next chunk; nil after the last.
    func next() throws -> Register.LoadBatch? {
        guard start < sample.count else { return nil }
        let end = min(sample.count, start + size)
        let batch = (start..<end).map { index in
            index < lifting ? sample.makeAsset(number: index + 1, random: &random)
                : sample.makeElectricalItem(number: index + 1, index: index - lifting, random: &electricalRandom)
        }
        start = end
        return try Register.LoadBatch(batch)
    }
}
