import Foundation
import RigbookCore
import RigbookStore
import RigbookUI

/// The attach prompt's effects: a folder listed for Tab completion, a file copied in.
extension Session {
    /// The home folder `~` stands for.
    static var homeFolder: String {
        ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// At most this many names of one folder are offered (a folder of a million files must not stall a Tab).
    static let listingLimit = 5000

    /// The entries of the folder `text` is being typed in. Names are read from the folder; whether each is a
    /// folder comes from `stat` (a link to a folder completes as one); nothing is opened, so a FIFO is harmless.
    func listPath(_ text: String) -> PathListing {
        let expanded = PathCompletion.expandingTilde(text, home: Session.homeFolder)
        let folder = PathCompletion.folderToList(expanded)
        let prefix = PathCompletion.split(expanded).prefix
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            return PathListing(typed: text, expanded: expanded, entries: [],
                               failure: "\(folder) cannot be listed: \(DataHome.reason(error)).")
        }
        var entries: [PathListing.Entry] = []
        for name in names where name.hasPrefix(prefix) {
            if entries.count == Session.listingLimit { break }
            var info = stat()
            let isFolder = stat((folder == "." ? "" : folder) + name, &info) == 0
                && info.st_mode & S_IFMT == S_IFDIR
            entries.append(PathListing.Entry(name: name, isDirectory: isFolder))
        }
        return PathListing(typed: text, expanded: expanded, entries: entries)
    }

    /// Copies the file in under its SHA-256, or says why not.
    func attachFile(_ path: String, owner: String) -> Event {
        let expanded = PathCompletion.expandingTilde(path, home: Session.homeFolder)
        do {
            return .attached(try AttachmentStore(home: home).attach(expanded), owner: owner)
        } catch {
            return .attachRefused(error.description, owner: owner)
        }
    }

    /// A record may name only files that are kept: why not, when one of them is gone from the folder.
    func missingAttachment(_ records: [ValidatedInspection]) -> String? {
        missingAttachment(in: records.flatMap(\.values.attachments))
    }

    /// The same for the files a record of either kind names.
    func missingAttachment(in attachments: [Attachment]) -> String? {
        let store = AttachmentStore(home: home)
        guard let gone = attachments.first(where: { !store.contains($0) }) else { return nil }
        return "\(gone.name) is no longer in Documents/Attachments/; remove it (Delete on the attachments line)"
            + " or attach it again"
    }
}
