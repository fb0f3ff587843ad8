import Foundation

/// The data home (SPEC §2): `--home DIR`, else `$RIGBOOK_HOME`, else `$XDG_DATA_HOME/rigbook`,
/// else `~/.local/share/rigbook`.
public struct DataHome: Sendable, Equatable {
    public let root: String

    public init(root: String) { self.root = root }

    public static func resolve(option: String?, environment: [String: String]) -> DataHome {
        if let option, !option.isEmpty { return DataHome(root: option) }
        if let home = environment["RIGBOOK_HOME"], !home.isEmpty { return DataHome(root: home) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return DataHome(root: xdg + "/rigbook") }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return DataHome(root: user + "/.local/share/rigbook")
    }

    public var documents: String { root + "/Documents" }
    public var registerPath: String { documents + "/register.sqlite" }
    public var draftsFolder: String { documents + "/Drafts" }
    public var profilePath: String { root + "/profile.json" }
    /// This machine's examiners' private keys (`FINGERPRINT.pem`, 0600, in a 0700 folder): never in the
    /// register, never copied by `backup`, never sent by `sync`.
    public var keysFolder: String { root + "/keys" }
    /// The electrical test form's profile: a file of its own beside `profile.json`, so a build that knows only
    /// the inspector's profile, rewriting that file, never drops the technician's particulars.
    public var testProfilePath: String { root + "/test-profile.json" }

    /// A filesystem error as a short reason ("Not a directory"), not Foundation's dump.
    public static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }

    /// Creates the folder and its parents; folders Rigbook creates are private (0700).
    public static func makePrivateDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }
}

/// Timestamps stored in the register and in drafts: ISO 8601, UTC, milliseconds.
public enum Timestamp {
    public static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `string(Date())` without Foundation's formatter: the clock's UTC fields written by hand, milliseconds cut
    /// as the formatter cuts them. Every typed key's journal line carries one or two.
    public static func now() -> String {
        var time = timespec()
        var fields = tm()
        guard clock_gettime(CLOCK_REALTIME, &time) == 0, gmtime_r(&time.tv_sec, &fields) != nil else {
            return string(Date())
        }
        let year = Int(fields.tm_year) + 1900
        guard (0...9999).contains(year) else { return string(Date()) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func put(_ value: Int, digits: Int, then separator: UInt8?) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
                divisor /= 10
            }
            if let separator { bytes.append(separator) }
        }
        put(year, digits: 4, then: UInt8(ascii: "-"))
        put(Int(fields.tm_mon) + 1, digits: 2, then: UInt8(ascii: "-"))
        put(Int(fields.tm_mday), digits: 2, then: UInt8(ascii: "T"))
        put(Int(fields.tm_hour), digits: 2, then: UInt8(ascii: ":"))
        put(Int(fields.tm_min), digits: 2, then: UInt8(ascii: ":"))
        put(Int(fields.tm_sec), digits: 2, then: UInt8(ascii: "."))
        put(Int(time.tv_nsec) / 1_000_000, digits: 3, then: UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}

/// Who and where: recorded with every save and every draft.
public enum SystemIdentity {
    /// Looked up once: `getpwuid` reads /etc/passwd (six system calls), and every typed key's journal line names
    /// the user twice. A process's effective user does not change.
    public static let userName: String = {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "unknown"
    }()

    /// Looked up once, like the user: every typed key's journal line names the host and the process, and each
    /// lookup was a call into Foundation or a system call on the way to the next key.
    public static let hostName: String = ProcessInfo.processInfo.hostName
    public static let processID: Int32 = getpid()
}
