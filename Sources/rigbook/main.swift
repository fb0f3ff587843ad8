import Foundation
import RigbookApp
import RigbookCore
import RigbookStore

/// Entry point: global options, then a subcommand or the full-screen register.
func runMain(_ rawArguments: [String], environment: [String: String]) -> Int32 {
    var arguments = Arguments<Commands.GlobalOptions>(rawArguments)
    defer { ServerReads.removeReplicas() }
    do {
        if arguments.flag(\.version) {
            print("rigbook \(RigbookVersion.current)")
            return ExitCode.success
        }
        let homeOption = try arguments.value(\.home)
        if homeOption?.isEmpty == true {
            // An unset variable in a script must not quietly mean the default (real) register.
            throw UsageError("--home needs a folder, not an empty value")
        }
        if arguments.flag(\.help) {
            // `rigbook asset add --help` is `rigbook help asset add`.
            var words: [String] = []
            while let word = arguments.nextOperand(\.command) { words.append(word) }
            arguments = Arguments(["help"] + words)
        }
        if let fixed = environment["RIGBOOK_TODAY"], CalendarDate(iso: fixed) == nil, !arguments.peekIsHelp {
            throw UsageError("RIGBOOK_TODAY must be a real date written YYYY-MM-DD, not \(fixed)")
        }
        let serverOption = try arguments.value(\.server)
        if serverOption?.isEmpty == true { throw UsageError("--server needs a URL, not an empty value") }
        var context = Context(home: DataHome.resolve(option: homeOption, environment: environment),
                              today: CalendarDate.today(environment: environment),
                              environment: environment)
        context.server = serverOption
        var words: [String] = []
        var probe = arguments
        while words.count < 2, let word = probe.nextOperand(\.command) { words.append(word) }
        if words.isEmpty {
            if serverOption != nil {
                throw UsageError("--server is for the reading commands (rigbook help sync); the full-screen"
                                 + " register works on this machine's replica")
            }
            try arguments.finish()
            return try openFullScreen(context)
        }
        guard let (spec, used) = Commands.find(words) else {
            if let status = try Commands.groupWithoutCommand(words) { return status }
            throw UsageError("unknown command '\(words[0])'; see `rigbook help`")
        }
        if serverOption != nil, !ServerReads.commands.contains(spec.name) {
            throw UsageError("--server is for reading the server: " + ServerReads.commands.sorted()
                .joined(separator: ", ") + "; \(spec.name) works on this machine's register")
        }
        for _ in 0..<used { _ = arguments.nextOperand(\.command) }
        return try spec.run(arguments.words, context)
    } catch let failure as StandardStreams.Failure {
        return StandardStreams.exitStatus(failure)
    } catch let error as UsageError {
        printError("rigbook: \(error.message)")
        return ExitCode.usage
    } catch let error as CommandFailure {
        printError(error.message)
        return error.status
    } catch {
        printError("rigbook: \(error)")
        return ExitCode.failure
    }
}

func openFullScreen(_ context: Context) throws -> Int32 {
    if let refusal = CursesTerminal.refusal(environment: context.environment) {
        printError(CursesTerminal.forStandardError(refusal))
        return ExitCode.failure
    }
    // A register that is there but cannot be written (a read-only file, a full disk) still opens, to read: the
    // inspector on site can see what is due; a save then fails with the reason and keeps what was typed.
    // Opened to write, SQLite may still find the file read-only (a file this user may not write): the session
    // asks the connection, and says so from the start as it does when opening to write fails.
    let register: Register
    var readOnly: String?
    do { register = try context.openRegister() } catch let failure {
        guard FileManager.default.fileExists(atPath: context.home.registerPath),
              let readable = try? context.readRegister() else { throw failure }
        register = readable
        readOnly = readable.permissionRefusal ?? failure.message.replacingOccurrences(of: "rigbook: ", with: "")
            .replacingOccurrences(of: "the register could not be written: ", with: "")
    }
    let environment = context.environment
    let writable = readOnly == nil && register.readOnlyReason == nil
    let session = Session(home: context.home, register: register, today: context.today,
                          draftRetentionDays: context.draftRetentionDays,
                          calendar: { CalendarDate.today(environment: environment) },
                          backgroundSync: writable ? FullScreen.backgroundSync(register, environment) : nil,
                          readOnly: readOnly)
    return FullScreen.run(session: session, environment: context.environment)
}

// A closed pipe is an EPIPE error that StandardStreams turns into a quiet exit, whatever disposition the
// parent left SIGPIPE in; `finish` reports a failed flush of what `print` wrote.
signal(SIGPIPE, SIG_IGN)
// A command stopped by Ctrl-C or `kill` part-way through writing a file leaves no temp file beside it, then ends
// as the signal would have ended it. The full-screen program puts in handlers of its own.
InProgressFiles.prepare()
for stopping in [SIGINT, SIGTERM, SIGHUP] {
    signal(stopping) { received in
        InProgressFiles.removeAll()
        signal(received, SIG_DFL)
        // To the process, not this thread: any thread not holding it back ends the process with it.
        kill(getpid(), received)
    }
}
exit(StandardStreams.finish(runMain(Array(CommandLine.arguments.dropFirst()),
                                    environment: ProcessInfo.processInfo.environment)))
