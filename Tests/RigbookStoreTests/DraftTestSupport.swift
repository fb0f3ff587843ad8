import Foundation
import Testing
import RigbookCore
import RigbookStore

// Helpers live in an extension of the suite, so they cannot clash with other files of this test target.
extension DraftStoreTests {
    /// A private data home for one test: `temporaryDirectory/rigbook-drafts-<UUID>`, removed by `remove()`.
    /// The root itself is not created, so the store creates every folder it needs (and its permissions).
    struct TempHome {
        let root: String
        let home: DataHome
        let store: DraftStore

        init() {
            let base = FileManager.default.temporaryDirectory.path
            root = (base.hasSuffix("/") ? base : base + "/") + "rigbook-drafts-" + UUID().uuidString
            home = DataHome(root: root)
            store = DraftStore(home: home)
        }

        func remove() {
            // Folders a test made read-only or odd must not stop the clean-up.
            if let walker = FileManager.default.enumerator(atPath: root) {
                for case let name as String in walker { chmod(root + "/" + name, 0o700) }
            }
            try? FileManager.default.removeItem(atPath: root)
        }

        /// Opens the register at the home's `registerPath`.
        func openRegister() throws -> Register {
            try Register.open(path: home.registerPath)
        }

        /// Names in a folder, sorted (dotfiles included); empty when the folder is missing.
        func names(in folder: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        }
    }

    /// A fixed instant for retention tests: 2026-01-15T12:00:00Z.
    var fixedNow: Date { Date(timeIntervalSince1970: 1_768_478_400) }

    var dayInSeconds: TimeInterval { 86_400 }

    /// A valid asset for the register.
    func makeAsset(uuid: UUID = UUID(), tag: String) -> Asset {
        Asset(uuid: uuid, tag: tag, name: "2 t web sling, 3 m", type: .webSling, wllKg: 2000, lengthM: 3,
              location: "Bay 4", manufacturer: "Acme", serialNumber: "WS-" + tag,
              commissioned: CalendarDate(iso: "2020-01-01"), intervalMonths: 6)
    }

    /// A draft with every field set, including CJK text and newlines.
    func makeDraft(assetUUID: UUID, tag: String = "SL-0042", sessionID: String? = nil, revision: Int = 1,
                   updatedAt: Date? = nil, values: InspectionValues? = nil) -> DraftFile {
        let updatedAt = updatedAt ?? fixedNow
        let draftID = DraftIdentity.draftID(assetUUID: assetUUID)
        return DraftFile(
            draftID: draftID,
            sessionID: sessionID ?? DraftIdentity.sessionID(assetUUID: assetUUID),
            assetUUID: assetUUID.uuidString.lowercased(),
            assetTag: tag,
            amends: nil,
            values: values ?? richValues(),
            createdAt: Timestamp.string(updatedAt.addingTimeInterval(-600)),
            updatedAt: Timestamp.string(updatedAt),
            operatorName: "王小明",
            revision: revision)
    }

    /// Values with every one of the 17 fields away from its default.
    func richValues() -> InspectionValues {
        InspectionValues(
            inspectionType: .thoroughScheme,
            inspectorName: "王小明 (Wang Xiaoming)",
            certificationNumber: "LEEA-認証-0042",
            checkMarking: true, checkCuts: true, checkDeformation: false, checkFittings: true, checkCorrosion: true,
            result: .defectToBeRemedied,
            notes: "第一行：吊带表面有磨损。\nSecond line, \"quoted\" \\ backslash\n\n第四行 ✓ 🔧",
            schemeReference: "SCH-7/吊具",
            defectDescription: "Stitching:\n缝线断裂 2 cm",
            action: .repair,
            remedyDeadlineSet: true,
            remedyDeadline: "2026-02-01",
            inspectionDate: "2026-01-1", // half-typed dates are kept as typed
            confirmed: false)
    }

    /// Values the save gate accepts (a pass, everything ticked) for `today`.
    func passingValues(today: CalendarDate) -> InspectionValues {
        var v = InspectionValues.blank(inspectorName: "Li Wei", certificationNumber: "LEEA-123", today: today)
        v.checkMarking = true
        v.checkCuts = true
        v.checkDeformation = true
        v.checkFittings = true
        v.checkCorrosion = true
        v.result = .pass
        v.confirmed = true
        return v
    }

    func posixPermissions(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let number = attributes[.posixPermissions] as? NSNumber else { return nil }
        return number.intValue & 0o7777
    }

    func octal(_ value: Int?) -> String { value.map { "0" + String($0, radix: 8) } ?? "missing" }

    func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// Writes a file with plain POSIX calls (fast, no temp file), mode 0600. False on any failure.
    @discardableResult
    func writeRaw(_ data: Data, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return data.withUnsafeBytes { raw in
            raw.count == 0 || Glibc.write(fd, raw.baseAddress!, raw.count) == raw.count
        }
    }

    /// `Timestamp.string` for a whole millisecond, computed without a formatter (fast enough for thousands):
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, UTC, with `separator` in place of the colons.
    func millisecondStamp(_ millisecondsSince1970: Int64, separator: String) -> String {
        var seconds = time_t(millisecondsSince1970 / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = Int(millisecondsSince1970 % 1000)
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + two(parts.tm_hour) + separator + two(parts.tm_min) + separator + two(parts.tm_sec) + ".\(msText)Z"
    }

    /// Polls `condition` every 20 ms until it holds or `timeout` passes; true when it held.
    func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if condition() { return true }
            if clock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20)) // poll interval; the deadline above bounds the wait
        }
    }

    /// Runs a program to its end and returns its exit status.
    func runProgram(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A child process started with Foundation's Process (which gives it its own process group, so the
    /// whole group — flock and the shell and sleep it forks — can be ended together, as a crash would).
    final class ChildProcess {
        let process = Process()

        init(_ executable: String, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Kills the child and everything it started (its process group), then reaps it.
        func kill(_ signal: Int32 = SIGKILL) {
            guard process.isRunning else { return }
            let pid = process.processIdentifier
            if getpgid(pid) == pid { Glibc.kill(-pid, signal) } else { Glibc.kill(pid, signal) }
            process.waitUntilExit()
        }

        deinit { kill() }
    }

    /// Takes the draft's lock or records why not.
    func acquire(_ store: DraftStore, _ id: String, sourceLocation: SourceLocation = #_sourceLocation) -> DraftLock? {
        switch store.lock(id: id) {
        case .acquired(let lock): return lock
        case .heldBy(let holder):
            Issue.record("lock(\(id)) was held by \(holder?.description ?? "someone unknown")",
                         sourceLocation: sourceLocation)
        case .failed(let reason):
            Issue.record("lock(\(id)) failed: \(reason)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// A description a person can read on the status line: one line, no Foundation error dump.
    func looksReadable(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("Error Domain=") && !text.contains("UserInfo=") && !text.contains("(null)")
            && !text.contains("\n")
    }
}
