import Foundation

/// The files only Rigbook writes: the register and its companions, the drafts with their journals and locks,
/// the profiles and every other file in the data home's own folders (its root, and Documents with all beneath).
/// Every writer of a file a person names (`--out`, `backup FILE`) asks `refusal(writing:)` first, so no output can
/// replace evidence or a draft.
///
/// A file is recognised however it is reached: the folder a path would be written into is compared with the
/// data home's folders by device and inode (a symbolic link, `..`, a bind mount all end at the same folder), and
/// an existing file by device and inode too (a hard link elsewhere is another name for the same file).
public struct OwnFiles: Sendable {
    /// The data home, when the register lives in one (a register opened by its path alone has none).
    public let home: DataHome?
    public let register: String

    public init(home: DataHome) {
        self.home = home
        register = home.registerPath
    }

    /// The files of the register at `register`: its data home when it sits in one's Documents folder.
    public init(register: String) {
        self.register = register
        let documents = (register as NSString).deletingLastPathComponent
        if (register as NSString).lastPathComponent == "register.sqlite",
           (documents as NSString).lastPathComponent == "Documents" {
            home = DataHome(root: (documents as NSString).deletingLastPathComponent)
        } else {
            home = nil
        }
    }

    /// Why `path` must not be written, as the end of a sentence that starts with the path ("… is the register
    /// itself"); nil when it is not one of ours.
    public func refusal(writing path: String) -> String? {
        var target = stat()
        if stat(path, &target) == 0, target.st_mode & S_IFMT != S_IFDIR {
            if let name = name(of: target) { return "\(path) is \(name)" }
        }
        guard let home else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        if Self.isWithin(folder.isEmpty ? "." : folder, any: ownFolders(home), atRoot: Self.identity(home.root)) {
            return "\(path) is in a folder of Rigbook's data home \(home.root), whose files only Rigbook writes:"
                + " write it elsewhere"
        }
        return nil
    }

    /// What the existing file `target` is to Rigbook, if it is one of its files.
    private func name(of target: stat) -> String? {
        func same(_ other: String) -> Bool {
            var info = stat()
            return stat(other, &info) == 0 && info.st_dev == target.st_dev && info.st_ino == target.st_ino
        }
        if same(register) { return "the register itself" }
        for companion in ["-wal", "-shm", "-journal"] where same(register + companion) {
            return "the register's \((register as NSString).lastPathComponent + companion), part of the register itself"
        }
        guard let home else { return nil }
        if same(home.profilePath) || same(home.testProfilePath) { return "Rigbook's profile" }
        // A file with one name was found above or is reached only through the data home's folders (checked by
        // the caller); one with several may be any of ours under another name.
        guard target.st_nlink > 1,
              let walker = FileManager.default.enumerator(atPath: home.root) else { return nil }
        while let relative = walker.nextObject() as? String {
            if same(home.root + "/" + relative) { return Self.describe(relative, in: home) }
        }
        return nil
    }

    private static func describe(_ relative: String, in home: DataHome) -> String {
        let drafts = String(home.draftsFolder.dropFirst(home.root.count + 1)) + "/"
        if relative.hasPrefix(drafts) {
            if relative.hasSuffix(".journal") { return "a draft's journal, part of a draft" }
            if relative.hasSuffix(".lock") { return "a draft's lock" }
            return "a draft"
        }
        return "Rigbook's own \(relative) in the data home \(home.root)"
    }

    /// The folders whose every file is Rigbook's: Documents and all beneath it (a folder a person made beside
    /// Documents in the data home is theirs).
    private func ownFolders(_ home: DataHome) -> [stat] {
        [home.documents, home.draftsFolder, home.keysFolder].compactMap(Self.identity)
    }

    private static func identity(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// Whether `folder` is `root` (which holds the profiles) or is, or lies beneath, one of `folders`; compared
    /// by device and inode.
    private static func isWithin(_ folder: String, any folders: [stat], atRoot root: stat?) -> Bool {
        guard let resolved = realpath(folder, nil) else { return false }
        var path = String(cString: resolved)
        free(resolved)
        func isOne(of candidates: [stat]) -> Bool {
            guard let info = identity(path) else { return false }
            return candidates.contains { $0.st_dev == info.st_dev && $0.st_ino == info.st_ino }
        }
        if let root, isOne(of: [root]) { return true }
        while true {
            if isOne(of: folders) { return true }
            if path == "/" || path.isEmpty { return false }
            path = (path as NSString).deletingLastPathComponent
        }
    }
}
