import Foundation
import RigbookCore
import RigbookStore

/// Registers as files: a backup while others work, and a laptop's work merged in.
extension Commands {
    struct BackupOptions: OptionTable {
        let file = Operand("FILE", missing: "the backup FILE", kind: .file)
        let force = Flag("--force", "Replace an earlier backup of this register that no session has open.")
    }

    static let backup = CommandSpec(
        name: "backup", abstract: "Copy the register safely while others keep working.",
        usage: "rigbook backup FILE [--force]",
        discussion: """
            Uses SQLite's online backup API, so sessions keep saving meanwhile; the copy is checked with
            SQLite's integrity check, made private (0600) and only then given the name FILE. It is the
            register as of one moment, in one file: `rigbook --home DIR` opens it once it is
            DIR/Documents/register.sqlite. An existing FILE is not replaced; --force replaces an earlier
            backup of this same register that no session has open, and nothing else. The photos and PDFs
            its records name are copied into Attachments/ beside FILE (named by SHA-256, so backups in
            one folder share them); restore both together.
            """,
        options: BackupOptions.self
    ) { arguments, context in
        let force = arguments.flag(\.force)
        let target = try arguments.operand(\.file)
        try arguments.finish()
        // An unset variable in a script must not become a nameless file.
        if target.trimmingCharacters(in: .whitespaces).isEmpty {
            throw UsageError("backup needs a FILE, not an empty name")
        }
        let register = try context.readRegister()
        let report = try orFail { try register.backup(to: target, replacing: force) }
        let size = ByteCountFormatter.string(fromByteCount: Int64(report.bytes), countStyle: .file)
        try Output.line("Backed up \(report.assets) assets and \(report.records) records to \(target) (\(size));"
                        + " the copy passed SQLite's integrity check.")
        let files = Register.backupAttachments(of: register, to: target)
        if files.copied + files.present > 0 {
            try Output.line("Attachments: \(files.copied) file\(files.copied == 1 ? "" : "s") "
                            + "copied into \(files.folder)"
                            + (files.present > 0 ? " (\(files.present) there already)" : "")
                            + ", each checked by SHA-256.")
        }
        for problem in files.problems { StandardStreams.toStandardError("rigbook: warning: \(problem)\n") }
        return ExitCode.success
    }

    struct MergeOptions: OptionTable {
        let other = Operand("OTHER.sqlite", missing: "the OTHER.sqlite register to merge", kind: .file)
        let dryRun = Flag.dryRun
    }

    static let merge = CommandSpec(
        name: "merge", abstract: "Bring in what another register (a laptop's) has and this one lacks.",
        usage: "rigbook merge OTHER.sqlite [--dry-run]",
        discussion: """
            Assets, records, asset changes, particulars, notices and earlier merges are matched by their
            uuid and copied with their hashes, in one transaction; OTHER is only read. Records never
            conflict: two amendments of one record are both kept and the asset is flagged. Where both
            registers changed one asset field, the later change holds and both stay in the history;
            each such case is printed. The same tag on two assets, or the same report number on two
            records, stops the merge before anything is written, listing them. Merging again brings
            nothing; `rigbook verify` passes on the merged register. --dry-run checks and counts only,
            and makes nothing on disk (on a new home, not even the register).
            The attachment files OTHER's records name are copied from Attachments/ beside OTHER when this
            home lacks them, each checked by its SHA-256 before it is kept.
            """,
        options: MergeOptions.self
    ) { arguments, context in
        let dryRun = arguments.flag(\.dryRun)
        let otherPath = try arguments.operand(\.other)
        try arguments.finish()
        // A dry run makes nothing on disk, not even the register a real merge would make.
        let (register, isNew) = dryRun ? try context.registerForDryRun() : (try context.openRegister(), false)
        let report: MergeReport
        let other: Register
        do throws(RegisterError) {
            other = try Register.openForMerging(path: otherPath)
            report = try register.merge(from: other, dryRun: dryRun)
        } catch .mergeRefused(let problems) {
            let lines = problems.map { "rigbook: \($0)" } + ["rigbook: nothing was merged."]
            throw CommandFailure(lines.joined(separator: "\n"))
        } catch { throw CommandFailure("rigbook: \(error.description)") }
        var out = Output()
        if isNew { try out.write(context.noRegisterYet("merging")) }
        if !dryRun {
            let files = register.mergeAttachments(from: other)
            if files.copied > 0 {
                let count = files.copied == 1 ? "1 attachment file" : "\(files.copied) attachment files"
                try out.write("Copied \(count) into \(files.folder), each checked by SHA-256.\n")
            }
            for problem in files.problems { StandardStreams.toStandardError("rigbook: warning: \(problem)\n") }
        }
        guard report.entries > 0 else {
            try out.write("Nothing to merge: this register already holds everything in \(otherPath).\n")
            try out.flush()
            return ExitCode.success
        }
        for conflict in report.fieldConflicts { try out.write("changed on both: \(conflict)\n") }
        for tag in report.conflictingAmendments {
            try out.write("conflicting amendments: \(tag) has a record amended on both registers; both are kept"
                          + " (see `rigbook history \(tag)`)\n")
        }
        let counts = [(report.assets, "asset"), (report.records, "record"), (report.electricalTests, "electrical test"),
                      (report.assetChanges, "asset change"),
                      (report.particulars, "particulars version"), (report.notices, "notice"),
                      (report.merges, "earlier merge"), (report.attachments, "attachment")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        try out.write((dryRun ? "Would merge " : "Merged ") + counts.joined(separator: ", ")
                      + " from \(otherPath)" + (dryRun ? "; nothing was written (dry run).\n" : ".\n"))
        try out.flush()
        return ExitCode.success
    }
}
