import Foundation
import RigbookCore
import RigbookStore
import Synchronization

/// The organisation's register on PostgreSQL: `rigbook sync`, and `--server URL` on the commands
/// that read.
extension Commands {
    struct SyncOptions: OptionTable {
        let url = Operand("URL", missing: "the server's URL")
    }

    static let sync = CommandSpec(
        name: "sync", abstract: "Sync this register with the organisation's server (PostgreSQL).",
        usage: "rigbook sync [URL]",
        discussion: """
            Pulls what the server has and this register lacks, then pushes what this register has and the
            server lacks: assets, records, asset changes, particulars, notices, merges, electrical tests and
            the attachment files, matched by uuid (files by SHA-256, checked) and kept with their hashes, by
            the rules of `rigbook merge`. Each side takes pages of 50,000 entries, each in one transaction,
            so an interrupted sync leaves whole pages and is simply run again;
            syncing twice changes nothing. Prints what was sent and received and each field changed on
            both sides (the later change holds; both stay in the history). URL is a PostgreSQL URL
            (postgresql://user@host/db, or postgresql:///db?host=/socket/folder); without it,
            $RIGBOOK_SERVER, else the URL this register last synced with. An empty database becomes the
            server on the first sync. Drafts and the profile never leave this machine.
            Exit 75: the server cannot be reached now (sync again later); 78: it refused for a reason
            someone must put right first (a password, a database, a role, a permission), as the message says.
            """,
        options: SyncOptions.self
    ) { arguments, context in
        let given = arguments.nextOperand(\.url) ?? context.server
        try arguments.finish()
        let register = try context.openRegister()
        let remembered = try orFail { try register.rememberedServer() }
        guard let url = given ?? context.environment["RIGBOOK_SERVER"].flatMap({ $0.isEmpty ? nil : $0 }) ?? remembered
        else {
            throw UsageError("sync needs the server's URL once: rigbook sync postgresql://HOST/DATABASE"
                             + " (or set RIGBOOK_SERVER); it is remembered after that")
        }
        let report: SyncReport
        do { report = try register.sync(url: url) }
        catch RegisterError.mergeRefused(let problems) {
            throw CommandFailure((problems.map { "rigbook: \($0)" }
                                  + ["rigbook: the sync stopped before writing anything more on either side."])
                .joined(separator: "\n"))
        } catch let error as ServerError {
            throw ServerReads.failure(error, later: "everything stays here: keep working and sync again later")
        } catch { throw CommandFailure("rigbook: \(error)") }
        var out = Output()
        for line in report.lines { try out.write(line + "\n") }
        try out.write("synced with \(ServerURL.redacted(url))\n")
        try out.flush()
        return ExitCode.success
    }
}

/// `--server URL` on the commands that read: the server's whole register is pulled into a replica of its own,
/// kept in the cache folder (`$XDG_CACHE_HOME/rigbook/`, else `~/.cache/rigbook/`, private), and the command
/// reads it as it reads any register. The first read pulls everything; each later one pulls only what arrived
/// since (docs/PERFORMANCE.md). The cached replica is never pushed from: deleting it loses nothing.
enum ServerReads {
    static let commands: Set<String> = ["due", "export", "report", "calendar", "certificate", "notices", "verify",
                                        "sync"]

    private static let folders = Mutex<[String]>([])

    static func replica(of url: String, environment: [String: String]) throws(CommandFailure) -> Register {
        let cacheRoot = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        let folder = cacheRoot + "/rigbook/" + Register.replicaFolderName(forServer: url)
        if environment["RIGBOOK_SERVER_CACHE"] == "off" {
            // A replica for this command only (a test, or a machine that must keep nothing).
            var template = Array((NSTemporaryDirectory() + "/rigbook-server-read-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                throw CommandFailure("rigbook: cannot make a temporary folder to read the server into: "
                                     + String(cString: strerror(errno)))
            }
            let temporary = String(cString: made)
            folders.withLock { $0.append(temporary) }
            return try pulled(url, into: temporary)
        }
        do { try DataHome.makePrivateDirectory(folder) } catch {
            throw CommandFailure("rigbook: cannot make \(folder) to read the server into: \(error)")
        }
        return try pulled(url, into: folder)
    }

    private static func pulled(_ url: String, into folder: String) throws(CommandFailure) -> Register {
        do { return try Register.replica(ofServer: url, in: folder) }
        catch let error as ServerError { throw failure(error, later: "read it again later") }
        catch { throw CommandFailure("rigbook: reading the server: \(error)") }
    }

    /// A failure of the server as the command's, with the exit status that tells a script whether to try again
    /// later (`later` says how) or to have someone put something right (the message says what).
    static func failure(_ error: ServerError, later: String) -> CommandFailure {
        switch error.cause {
        case .tryLater: CommandFailure("rigbook: \(error.message); \(later)", status: ExitCode.tryLater)
        case .needsAction: CommandFailure("rigbook: \(error.message)", status: ExitCode.needsAction)
        case .other: CommandFailure("rigbook: \(error.message)")
        }
    }

    /// Removes the replicas made for one command (RIGBOOK_SERVER_CACHE=off).
    static func removeReplicas() {
        let made = folders.withLock { list in defer { list = [] }; return list }
        for folder in made { try? FileManager.default.removeItem(atPath: folder) }
    }
}
