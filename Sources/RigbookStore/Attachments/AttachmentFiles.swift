import Foundation
import RigbookCore

/// Attachment files carried between homes: a register file's attachments are in `Attachments/`
/// beside it (`<home>/Documents/Attachments/` beside `<home>/Documents/register.sqlite`). `backup FILE` copies
/// the files its records name into `Attachments/` beside FILE, and `merge OTHER` copies from the one beside
/// OTHER the files this home lacks. Every copy is checked against its SHA-256 before it takes its name.
public enum AttachmentFiles {
    /// What a copy of attachment files did.
    public struct Report: Sendable, Equatable {
        public var folder = ""
        public var copied = 0
        /// Files there already, with the right content.
        public var present = 0
        /// Named by a record but not in the source folder (or unreadable there).
        public var missing: [String] = []
        /// In the source folder with content that is not what its name says: not copied.
        public var damaged: [String] = []
        /// At the target path already, but not that content (or not a file): left alone, not replaced.
        public var inTheWay: [String] = []

        /// Lines for the command's output about what could not be carried, empty when everything was.
        public var problems: [String] {
            missing.map { "attachment \($0) is not in the folder it was copied from; records still name it" }
                + damaged.map { "attachment \($0) does not match its SHA-256 where it was copied from; not copied" }
                + inTheWay.map { "\(folder)/\($0) is there already with other content; left as it is" }
        }
    }

    public static func folder(besideRegister path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return (parent.isEmpty ? "." : parent) + "/Attachments"
    }

    /// Copies the files `hashes` from `source` to `target` (made private if new), each verified.
    public static func copy(_ hashes: Set<String>, from source: String, to target: String) -> Report {
        var report = Report(folder: target)
        let sourceStore = AttachmentStore(folder: source), targetStore = AttachmentStore(folder: target)
        for hash in hashes.sorted() where AttachmentStore.isHashName(hash) {
            let destination = target + "/" + hash
            var info = stat()
            if lstat(destination, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFREG, verified(destination, hash) != nil {
                    report.present += 1
                } else {
                    report.inTheWay.append(hash)
                }
                continue
            }
            guard sourceStore.folder != targetStore.folder,
                  let data = RegularFile.read(source + "/" + hash, limit: Int(Attachment.maxSize))
            else {
                report.missing.append(hash)
                continue
            }
            guard (try? HashChain.sha256(data)) == hash else {
                report.damaged.append(hash)
                continue
            }
            do {
                try AtomicFile.write(data, to: destination, permissions: .private)
                // Read back: what took the name is what was meant.
                if verified(destination, hash) == nil {
                    unlink(destination)
                    report.damaged.append(hash)
                } else {
                    report.copied += 1
                }
            } catch {
                report.missing.append(hash)
            }
        }
        return report
    }

    /// The file's content when it is what `hash` says (also used by sync), else nil.
    static func verified(_ path: String, _ hash: String) -> Data? {
        guard let data = RegularFile.read(path, limit: Int(Attachment.maxSize)),
              (try? HashChain.sha256(data)) == hash else { return nil }
        return data
    }
}

extension Register {
    /// After `backup(to:)`: the files the backup's records name, into `Attachments/` beside it.
    public static func backupAttachments(of register: Register, to backup: String) -> AttachmentFiles.Report {
        let target = AttachmentFiles.folder(besideRegister: backup)
        let hashes: Set<String>
        do { hashes = try Register.openForReading(path: backup).referencedAttachmentHashes() } catch {
            var report = AttachmentFiles.Report(folder: target)
            report.missing = ["(the backup's records could not be read: \(error.description))"]
            return report
        }
        return AttachmentFiles.copy(hashes, from: AttachmentFiles.folder(besideRegister: register.path), to: target)
    }

    /// After a merge from `other`: the files its records name that this home lacks, from beside it.
    public func mergeAttachments(from other: Register) -> AttachmentFiles.Report {
        let target = AttachmentFiles.folder(besideRegister: path)
        guard let hashes = try? other.referencedAttachmentHashes() else {
            return AttachmentFiles.Report(folder: target)
        }
        return AttachmentFiles.copy(hashes, from: AttachmentFiles.folder(besideRegister: other.path), to: target)
    }
}
