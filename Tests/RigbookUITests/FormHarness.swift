import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookApp
import RigbookCore
import RigbookStore
@testable import RigbookUI

/// The form tests' view of the one `Harness`: a fresh home with the SL-0042 asset, an optional
/// profile and records, at 80×24, with helpers to fill the form and look at its draft file.
final class FormHarness {
    static let today = harnessToday
    static let width = 80
    static let height = 24

    let harness: Harness
    let asset: Asset

    var home: DataHome { harness.home }
    var register: Register { harness.register }
    var clock: HarnessClock { harness.clock }
    var session: Session { harness.session }

    /// The asset every form test inspects.
    static func standardAsset() -> Asset {
        Asset(tag: "SL-0042", name: "2 t web sling", type: .webSling, wllKg: 2000,
              commissioned: CalendarDate(iso: "2024-01-01"), intervalMonths: 6)
    }

    /// A fresh home with the SL-0042 asset (plus `extraAssets`), an optional profile.json, a started
    /// session and its first frame drawn.
    init(profile: Profile? = nil, extraAssets: [Asset] = [], records: [InspectionValues] = [],
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let asset = FormHarness.standardAsset()
        self.asset = asset
        harness = try Harness(.assets([asset] + extraAssets), profile: profile, prepare: { register in
            for values in records {
                try FormHarness.insertRecord(values, into: register, asset: asset, sourceLocation: sourceLocation)
            }
        }, sourceLocation: sourceLocation)
    }

    /// A second session on the same home, as a second terminal on the same machine would be.
    init(sharingHomeOf other: FormHarness, readOnly: Bool = false,
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        harness = try Harness(sharingHomeOf: other.harness, readOnly: readOnly, sourceLocation: sourceLocation)
        asset = other.asset
    }

    // MARK: Driving

    func press(_ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) {
        harness.press(keys, sourceLocation: sourceLocation)
    }

    func press(_ keys: [Key], sourceLocation: SourceLocation = #_sourceLocation) {
        harness.press(keys, sourceLocation: sourceLocation)
    }

    func type(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        harness.type(text, sourceLocation: sourceLocation)
    }

    func advance(_ seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        harness.advance(seconds, sourceLocation: sourceLocation)
    }

    func checkScreen(sourceLocation: SourceLocation = #_sourceLocation) {
        harness.checkScreen(sourceLocation: sourceLocation)
    }

    /// Presses Tab (or Shift-Tab, when that is shorter) until `field` has the focus.
    func focus(_ field: FormField, sourceLocation: SourceLocation = #_sourceLocation) {
        if let form, let from = form.fields.firstIndex(of: form.focus), let to = form.fields.firstIndex(of: field) {
            let forward = (to - from + form.fields.count) % form.fields.count
            let key: Key = forward <= form.fields.count - forward ? .tab : .backTab
            for _ in 0..<min(forward, form.fields.count - forward) { press(key, sourceLocation: sourceLocation) }
        }
        for _ in 0..<FormField.allCases.count {
            if session.state.form?.focus == field { return }
            press(.tab, sourceLocation: sourceLocation)
        }
        #expect(session.state.form?.focus == field, "Tab never reached \(field)", sourceLocation: sourceLocation)
    }

    /// Opens the form with `i` and moves to the inspector's name (the form opens on the first field that needs
    /// the inspector, the first check when a profile names the inspector).
    func openFormOnInspectorName(sourceLocation: SourceLocation = #_sourceLocation) {
        press(.char("i"), sourceLocation: sourceLocation)
        focus(.inspectorName, sourceLocation: sourceLocation)
    }

    // MARK: Looking

    var form: FormState? { session.state.form }
    var frame: Frame { harness.frame }
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

    var draftID: String { DraftIdentity.draftID(assetUUID: asset.uuid) }

    /// `Documents/Drafts/inspection-<uuid lowercased>.json`, spelled out rather than asked of the store.
    var draftPath: String {
        home.root + "/Documents/Drafts/inspection-" + asset.uuid.uuidString.lowercased() + ".json"
    }

    var draftExists: Bool { FileManager.default.fileExists(atPath: draftPath) }

    func readDraft() throws -> DraftFile? { try DraftStore(home: home).read(id: draftID) }

    func history() throws -> [StoredInspection] { try register.history(assetUUID: asset.uuid) }

    /// Puts a record into the register through the gate, as a saved form would.
    @discardableResult
    static func insertRecord(_ values: InspectionValues, into register: Register, asset: Asset,
                             amending: StoredInspection? = nil,
                             stamp: SaveStamp = SaveStamp(savedAt: "2026-11-30T09:15:00.000Z", operatorName: "rigger7"),
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let context = SaveGate.Context(asset: asset, today: FormHarness.today,
                                       sessionID: DraftIdentity.sessionID(assetUUID: asset.uuid),
                                       amending: amending, particulars: TestParticulars.report(for: asset.uuid))
        switch SaveGate.validate(values, context: context) {
        case .success(let record):
            return try register.insert(record, saved: stamp)
        case .failure(let failure):
            Issue.record("test record refused by the gate: \(failure.problems.map(\.message))",
                         sourceLocation: sourceLocation)
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
