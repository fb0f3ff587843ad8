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
        fastString(date) ?? date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The same text for the years 1970–9999, from `gmtime_r` (TimestampTests compares them): every typed key
    /// stamps its journal line, and Foundation's format style was a few microseconds of it.
    static func fastString(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970
        guard seconds >= 0, seconds < 253_402_300_800 else { return nil }
        var whole = time_t(seconds.rounded(.down))
        let milliseconds = Int(((seconds - Double(whole)) * 1000).rounded(.down))
        var parts = tm()
        guard gmtime_r(&whole, &parts) != nil else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 { bytes.append(UInt8(48 + value / divisor % 10)); divisor /= 10 }
        }
        digits(Int(parts.tm_year) + 1900, 4); bytes.append(0x2D); digits(Int(parts.tm_mon) + 1, 2); bytes.append(0x2D)
        digits(Int(parts.tm_mday), 2); bytes.append(0x54); digits(Int(parts.tm_hour), 2); bytes.append(0x3A)
        digits(Int(parts.tm_min), 2); bytes.append(0x3A); digits(Int(parts.tm_sec), 2); bytes.append(0x2E)
        digits(min(999, milliseconds), 3); bytes.append(0x5A)
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func now() -> String { string(Date()) }

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

    public static var hostName: String { ProcessInfo.processInfo.hostName }
}
