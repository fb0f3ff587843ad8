import Foundation
import RigbookCore

/// Attachment files carried by sync (server migration 003): the `attachments` entries travel like the
/// other entries; the files they (and electrical tests) name travel in the server's `attachment_files`, once
/// each under its SHA-256. A replica sends the files it has that the server lacks and fetches the files its
/// records name that it lacks, one file at a time (at most 20 MB each), each checked against its SHA-256 before
/// it is sent or takes its name here (written atomically, 0600).
public struct SyncedFiles: Sendable, Equatable {
    public var sent = 0
    public var received = 0
    /// Files refused for their content: one sentence each.
    public var problems: [String] = []
}

extension Register {
    /// Sends the server the files this register's records name, that are here and the server lacks.
    func pushAttachmentFiles(_ server: PostgresConnection) throws -> SyncedFiles {
        var files = SyncedFiles()
        let folder = AttachmentFiles.folder(besideRegister: path)
        let here = try referencedAttachmentHashes().filter {
            AttachmentStore.isHashName($0) && FileManager.default.fileExists(atPath: folder + "/" + $0)
        }
        guard !here.isEmpty else { return files }
        let lacking = try server.query("""
            SELECT h FROM unnest($1::text[]) AS h WHERE NOT EXISTS (SELECT 1 FROM attachment_files WHERE sha256 = h)
            """, [.text(PostgresConnection.arrayLiteral(here.sorted()))])
        for row in 0..<lacking.count {
            let hash = lacking.text(row, 0)
            guard let data = AttachmentFiles.verified(folder + "/" + hash, hash) else {
                files.problems.append("attachment \(hash) here does not match its SHA-256 (or cannot be read);"
                                      + " not sent: run rigbook verify")
                continue
            }
            try server.binaryQuery("INSERT INTO attachment_files (sha256, content) VALUES ($1, $2)"
                                   + " ON CONFLICT (sha256) DO NOTHING", [Data(hash.utf8), data])
            files.sent += 1
        }
        return files
    }

    /// Fetches from the server the files this register's records name and this home lacks.
    func pullAttachmentFiles(_ server: PostgresConnection) throws -> SyncedFiles {
        var files = SyncedFiles()
        let folder = AttachmentFiles.folder(besideRegister: path)
        let lacking = try referencedAttachmentHashes().filter {
            AttachmentStore.isHashName($0) && !FileManager.default.fileExists(atPath: folder + "/" + $0)
        }
        guard !lacking.isEmpty else { return files }
        let held = try server.query("SELECT sha256 FROM attachment_files WHERE sha256 = ANY($1::text[]) ORDER BY 1",
                                    [.text(PostgresConnection.arrayLiteral(lacking.sorted()))])
        if held.count > 0 {
            do { try DataHome.makePrivateDirectory(folder) } catch {
                throw RegisterError.writeFailed("cannot make \(folder) for the attachment files: \(error)")
            }
        }
        for row in 0..<held.count {
            let hash = held.text(row, 0)
            let fetched = try server.binaryQuery("SELECT content FROM attachment_files WHERE sha256 = $1",
                                                 [Data(hash.utf8)])
            guard fetched.count == 1 else { continue }
            let data = fetched.bytes(0, 0)
            guard (try? HashChain.sha256(data)) == hash else {
                files.problems.append("attachment \(hash) came from the server with content that does not match"
                                      + " its SHA-256: refused, not kept (verify the server)")
                continue
            }
            let target = folder + "/" + hash
            do { try AtomicFile.write(data, to: target, permissions: .private) } catch {
                throw RegisterError.writeFailed("cannot write the attachment file \(target): \(error)")
            }
            files.received += 1
        }
        return files
    }
}
