import Foundation
import Testing
import RigbookApp
import RigbookCore
import RigbookStore
import RigbookUI

/// A clock the tests move by hand, in whole milliseconds so virtual times never drift
/// (10.000 + 0.300 is exactly the 10.3 the form computes as its preview deadline).
final class FormHarnessClock {
    var milliseconds: Int

    init(milliseconds: Int = 10_000) { self.milliseconds = milliseconds }

    var seconds: Double { Double(milliseconds) / 1000 }
}

/// One running Rigbook on a temporary data home, driven by keys on a virtual clock, at 80×24.
///
/// Every step (`press`, `type`, `advance`) ends by sending the frame diff to an in-memory terminal
/// and checking that what that terminal shows is exactly the session's frame.
final class FormHarness {
    static let today = CalendarDate(iso: "2026-11-30")!
    static let width = 80
    static let height = 24

    let home: DataHome
    let register: Register
    let asset: Asset
    let clock: FormHarnessClock
    let session: Session
    /// Only the harness that made the home removes it.
    private let ownsHome: Bool
    private var terminal = InMemoryScreen(width: FormHarness.width, height: FormHarness.height)

    /// The asset every form test inspects.
    static func standardAsset() -> Asset {
        Asset(tag: "SL-0042", name: "2 t web sling", type: .webSling, wllKg: 2000,
              commissioned: CalendarDate(iso: "2024-01-01"), intervalMonths: 6)
    }

    /// A fresh home with the SL-0042 asset (plus `extraAssets`), an optional profile.json, a started
    /// session and its first frame drawn.
    init(profile: Profile? = nil, extraAssets: [Asset] = [], records: [InspectionValues] = [],
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("rigbook-form-\(UUID().uuidString)").path
        home = DataHome(root: root)
        ownsHome = true
        register = try Register.open(path: home.registerPath)
        asset = FormHarness.standardAsset()
        try register.addAsset(asset)
        for extra in extraAssets { try register.addAsset(extra) }
        for values in records {
            try FormHarness.insertRecord(values, into: register, asset: asset, sourceLocation: sourceLocation)
        }
        if let profile { try profile.save(to: home.profilePath) }
        clock = FormHarnessClock()
        let clock = self.clock
        session = Session(home: home, register: register, today: FormHarness.today,
                          width: FormHarness.width, height: FormHarness.height, clock: { clock.seconds })
        session.start()
        checkScreen(sourceLocation: sourceLocation)
    }

    /// A second session on the same home (another Register instance, its own clock), as a second
    /// terminal on the same machine would be.
    init(sharingHomeOf other: FormHarness, sourceLocation: SourceLocation = #_sourceLocation) throws {
        home = other.home
        ownsHome = false
        register = try Register.open(path: home.registerPath)
        asset = other.asset
        clock = FormHarnessClock()
        let clock = self.clock
        session = Session(home: home, register: register, today: FormHarness.today,
                          width: FormHarness.width, height: FormHarness.height, clock: { clock.seconds })
        session.start()
        checkScreen(sourceLocation: sourceLocation)
    }

    deinit {
        if ownsHome { try? FileManager.default.removeItem(atPath: home.root) }
    }

    // MARK: Driving

    func press(_ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) {
        press(keys, sourceLocation: sourceLocation)
    }

    func press(_ keys: [Key], sourceLocation: SourceLocation = #_sourceLocation) {
        session.send(keys)
        checkScreen(sourceLocation: sourceLocation)
    }

    /// Types text one character at a time (as a paste arrives), then checks the screen once.
    func type(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        session.send(Key.typing(text))
        checkScreen(sourceLocation: sourceLocation)
    }

    /// Moves the virtual clock and lets the loop wake up (`.tick`).
    func advance(_ seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        clock.milliseconds += Int((seconds * 1000).rounded())
        session.send(.tick)
        checkScreen(sourceLocation: sourceLocation)
    }

    /// Presses Tab until `field` has the focus (at most once round the form).
    func focus(_ field: FormField, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<FormField.allCases.count {
            if session.state.form?.focus == field { return }
            press(.tab, sourceLocation: sourceLocation)
        }
        #expect(session.state.form?.focus == field, "Tab never reached \(field)", sourceLocation: sourceLocation)
    }

    /// Checks that the frame diff, applied to what the terminal showed, reproduces the frame.
    func checkScreen(sourceLocation: SourceLocation = #_sourceLocation) {
        let (frame, runs) = session.nextDraw()
        terminal.apply(runs, size: (frame.width, frame.height))
        #expect(terminal.lines == frame.lines, "the diff does not reproduce the frame", sourceLocation: sourceLocation)
        #expect(terminal.lines == session.frame().lines, sourceLocation: sourceLocation)
        #expect(terminal.frame.cells == frame.cells, "the diff does not reproduce the frame's styles",
                sourceLocation: sourceLocation)
    }

    // MARK: Looking

    var form: FormState? { session.state.form }
    var frame: Frame { session.frame() }
    var screen: [String] { session.frame().lines }
    var screenText: String { screen.joined(separator: "\n") }

    /// The screen as one line with runs of white space collapsed, so a sentence wrapped over two
    /// rows reads as one.
    var flatScreen: String { FormHarness.collapse(screen.joined(separator: " ")) }

    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    func shows(_ text: String) -> Bool { screen.contains { $0.contains(text) } }

    /// The first screen line holding `text`.
    func line(containing text: String) -> String? { screen.first { $0.contains(text) } }

    // MARK: Files

    var draftID: String { DraftIdentity.fileID(assetUUID: asset.uuid) }

    /// `Documents/Drafts/inspection-<uuid lowercased>.json`, spelled out rather than asked of the store.
    var draftPath: String {
        home.root + "/Documents/Drafts/inspection-" + asset.uuid.uuidString.lowercased() + ".json"
    }

    var draftExists: Bool { FileManager.default.fileExists(atPath: draftPath) }

    func readDraft() throws -> DraftFile? { try DraftStore(home: home).read(id: draftID) }

    func history() throws -> [StoredInspection] { try register.history(assetUUID: asset.uuid) }

    /// Puts a record into the register through the gate, as a saved form would.
    @discardableResult
    static func insertRecord(_ values: InspectionValues, into register: Register, asset: Asset, amends: Int64? = nil,
                             stamp: SaveStamp = SaveStamp(savedAt: "2026-11-30T09:15:00.000Z", operatorName: "rigger7"),
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let context = SaveGate.Context(assetUUID: asset.uuid, commissioned: asset.commissioned, today: FormHarness.today,
                                       draftID: DraftIdentity.sessionID(assetUUID: asset.uuid), amends: amends)
        switch SaveGate.validate(values, context: context) {
        case .success(let record):
            return try register.insert(record, saved: stamp)
        case .failure(let failure):
            Issue.record("test record refused by the gate: \(failure.problems.map(\.message))", sourceLocation: sourceLocation)
            return -1
        }
    }

    /// A complete periodic thorough examination with result Pass.
    static func passValues(name: String = "Ann Smith", certificate: String = "LEEA-1",
                           date: String = "2026-11-30", notes: String = "") -> InspectionValues {
        InspectionValues(inspectionType: .thoroughPeriodic, inspectorName: name, certificationNumber: certificate,
                         checkMarking: true, checkCuts: true, checkDeformation: true, checkFittings: true,
                         checkCorrosion: true, result: .pass, notes: notes, inspectionDate: date, confirmed: true)
    }

    // MARK: Filling the form by keys

    /// From an open, prefilled form: ticks the five checks, chooses Pass and confirms.
    func fillCompletePass(sourceLocation: SourceLocation = #_sourceLocation) {
        for field in [FormField.checkMarking, .checkCuts, .checkDeformation, .checkFittings, .checkCorrosion] {
            focus(field, sourceLocation: sourceLocation)
            press(.char(" "), sourceLocation: sourceLocation)
        }
        focus(.result, sourceLocation: sourceLocation)
        press(.right, sourceLocation: sourceLocation)
        focus(.confirmed, sourceLocation: sourceLocation)
        press(.char(" "), sourceLocation: sourceLocation)
    }
}
