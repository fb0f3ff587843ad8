import Foundation
import RigbookCore

/// Durable atomic replacement of a small file: temp file in the same folder, fsync, rename, fsync of
/// the folder. A reader sees the whole old file or the whole new one, even after a power cut.
///
/// Only a regular file (or a path where nothing is) is ever replaced: `rename` would put a regular file
/// in place of a FIFO, a device, or a symbolic link as readily, and none of those is ours to replace.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let step: String
        public let code: Int32
        /// Written in place (a FIFO, a terminal, standard output): part of it may have been written.
        public var inPlace = false
        public var description: String { "cannot write \(path) (\(step): \(String(cString: strerror(code))))" }
    }

    /// Something at the path that Rigbook will not replace: the reason is a phrase ("it is a folder").
    public struct Refusal: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Who a file is for, which decides its mode.
    public enum Permissions: Sendable {
        /// Files Rigbook keeps (register, drafts, profile): 0600 whatever the umask.
        case `private`
        /// Files written for the user (exports, reports, calendars): a new one is 0666 less the umask, as
        /// any program creates a file; one replaced keeps its permission bits (and, where the system
        /// allows, its owner and group).
        case user
    }

    /// `beforeRename` is a test hook called with the temp path once it is complete and synced: a
    /// throw there simulates a crash between the write and the rename.
    public static func write(_ data: Data, to path: String, permissions: Permissions = .private,
                             beforeRename: ((String) throws -> Void)? = nil) throws {
        try stream(to: path, permissions: permissions, beforeRename: beforeRename) { try $0.write(contentsOf: data) }
    }

    /// Writes a large file piece by piece with the same guarantees: readers see the old file until
    /// the new one is whole.
    /// `createFolder` makes a missing folder (0700), as the data home needs; files a person names
    /// (`--out`) must go into a folder that exists.
    public static func stream(to path: String, permissions: Permissions = .private, createFolder: Bool = true,
                              beforeRename: ((String) throws -> Void)? = nil,
                              _ body: (inout Writer) throws -> Void) throws {
        let replaced = try replaceable(path)
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        if createFolder { try DataHome.makePrivateDirectory(folder) }
        let (tempPath, slot) = try writeTemp(for: path, in: folder, permissions: permissions, replacing: replaced, body)
        var renamed = false
        defer {
            if !renamed { unlink(tempPath) }
            InProgressFiles.finished(slot)
        }
        try beforeRename?(tempPath)
        // Again, just before the rename: a FIFO or a link made meanwhile is not replaced either.
        _ = try replaceable(path)
        guard rename(tempPath, path) == 0 else { throw WriteError(path: path, step: "rename", code: errno) }
        renamed = true
        try syncFolder(folder, for: path)
    }

    /// Writes a new file in `folder` under the first free name of `name(0)`, `name(1)`, … and returns its path:
    /// for a file whose name the program picks. The whole file is written beside it first, then linked under the
    /// name: `link` fails on a name taken where `rename` would replace it, so two writers picking one name at the
    /// same moment both keep their file, and no half-written file is ever under a final name. Where the file
    /// system has no hard links (`hardLinks` false: tests), the name is reserved with `O_EXCL` and the whole file
    /// renamed over that empty reservation.
    public static func createNew(in folder: String, permissions: Permissions = .private, hardLinks: Bool = true,
                                 named name: (Int) -> String, _ body: (inout Writer) throws -> Void) throws -> String {
        let first = folder + "/" + name(0)
        let (tempPath, slot) = try writeTemp(for: first, in: folder, permissions: permissions, replacing: .nothing,
                                             body)
        defer {
            unlink(tempPath)
            InProgressFiles.finished(slot)
        }
        for attempt in 0..<1000 {
            let path = attempt == 0 ? first : folder + "/" + name(attempt)
            if try placeIfFree(tempPath, at: path, hardLinks: hardLinks) {
                try syncFolder(folder, for: path)
                return path
            }
        }
        throw WriteError(path: first, step: "find a free name", code: EEXIST)
    }

    /// Puts the complete file at `tempPath` under `path` as well, unless something is there already (false); the
    /// caller removes the temp name. Never replaces anything, however late it appeared.
    static func placeIfFree(_ tempPath: String, at path: String, hardLinks: Bool = true) throws -> Bool {
        if hardLinks {
            if link(tempPath, path) == 0 { return true }
            if errno == EEXIST { return false }
            // A file system without hard links (FAT on a USB stick) says so with one of these.
            guard [EPERM, EOPNOTSUPP, ENOSYS].contains(errno) else {
                throw WriteError(path: path, step: "link", code: errno)
            }
        }
        let reserved = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard reserved >= 0 else {
            if errno == EEXIST { return false }
            throw WriteError(path: path, step: "create", code: errno)
        }
        close(reserved)
        guard rename(tempPath, path) == 0 else {
            let code = errno
            unlink(path)
            throw WriteError(path: path, step: "rename", code: code)
        }
        return true
    }

    /// A complete, synced temp file beside `path` holding what `body` writes, with the mode `path` gets: 0600 for
    /// Rigbook's files; for the user's, 0666 less the umask, or the mode of the file it will replace.
    /// Returns it with its `InProgressFiles` slot, for the caller to give back once it is renamed or removed.
    private static func writeTemp(for path: String, in folder: String, permissions: Permissions,
                                  replacing replaced: PathOccupant,
                                  _ body: (inout Writer) throws -> Void) throws -> (String, Int?) {
        let (fd, tempPath, slot) = try createTemp(for: path, in: folder,
                                                  mode: permissions == .private ? 0o600 : 0o666)
        do {
            defer { close(fd) }
            if case .regularFile(let mode, let owner, let group) = replaced, permissions == .user {
                // Best effort: only root may give a file away; anyone else's replacement becomes theirs.
                if owner != geteuid() || group != getegid() { _ = fchown(fd, owner, group) }
                guard fchmod(fd, mode & 0o777) == 0 else { throw WriteError(path: path, step: "chmod", code: errno) }
            } else if permissions == .private {
                guard fchmod(fd, 0o600) == 0 else { throw WriteError(path: path, step: "chmod", code: errno) }
            }
            var writer = Writer(fd: fd, path: path)
            try body(&writer)
            try writer.flush()
            guard fsync(fd) == 0 else { throw WriteError(path: path, step: "fsync", code: errno) }
        } catch {
            unlink(tempPath)
            InProgressFiles.finished(slot)
            throw error
        }
        return (tempPath, slot)
    }

    /// Makes a new name in `folder` durable, as the file's own fsync made its content.
    private static func syncFolder(_ folder: String, for path: String) throws {
        let dirFD = open(folder, O_RDONLY | O_DIRECTORY)
        guard dirFD >= 0 else { return }
        defer { close(dirFD) }
        guard fsync(dirFD) == 0 else { throw WriteError(path: path, step: "fsync folder", code: errno) }
    }

    /// What is at `path`, when it is something a rename may replace: nothing, or a regular file.
    private static func replaceable(_ path: String) throws(Refusal) -> PathOccupant {
        let occupant = PathOccupant(path)
        if let reason = occupant.refusal { throw Refusal(path: path, reason: reason) }
        return occupant
    }

    /// A new temp file next to `path`, created with `mode` less the umask (`.NAME.tmp-XXXXXX`, as
    /// `mkstemp` names them, which cannot take a mode).
    /// Returned with its `InProgressFiles` slot. Made and noted with the stopping signals held back, so a signal
    /// never finds the file there unnoted (nor a noted name whose file is another's).
    private static func createTemp(for path: String, in folder: String,
                                   mode: mode_t) throws -> (Int32, String, Int?) {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let stem = folder + "/." + (path as NSString).lastPathComponent + ".tmp-"
        for _ in 0..<100 {
            let tempPath = stem + String((0..<6).map { _ in letters.randomElement()! })
            let (fd, code, slot) = InProgressFiles.holdingSignals {
                let fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
                let code = errno
                return (fd, code, fd >= 0 ? InProgressFiles.started(tempPath) : nil)
            }
            if fd >= 0 { return (fd, tempPath, slot) }
            if code != EEXIST { throw WriteError(path: path, step: "create temp file", code: code) }
        }
        throw WriteError(path: path, step: "create temp file", code: EEXIST)
    }

    /// Buffered writes to a file descriptor (loops on EINTR, EAGAIN and short writes). On a terminal,
    /// control characters are shown in caret notation, line ends kept (`VisibleText.keepingLineEnds`).
    public struct Writer {
        let fd: Int32
        let path: String
        let inPlace: Bool
        /// Whether the descriptor is a terminal, where text goes in caret notation.
        public let showsControls: Bool
        private var buffer = Data()

        init(fd: Int32, path: String, inPlace: Bool = false, showsControls: Bool = false) {
            self.fd = fd
            self.path = path
            self.inPlace = inPlace
            self.showsControls = showsControls
        }

        /// A writer on a descriptor already open and written in place, such as standard output; `name`
        /// stands for it in errors. The descriptor is not closed here. `showingControls` defaults to
        /// whether the descriptor is a terminal.
        public init(descriptor: Int32, name: String, showingControls: Bool? = nil) {
            self.init(fd: descriptor, path: name, inPlace: true,
                      showsControls: showingControls ?? (isatty(descriptor) != 0))
        }

        public mutating func write(_ text: String) throws {
            buffer.append(contentsOf: (showsControls ? VisibleText.keepingLineEnds(text) : text).utf8)
            if buffer.count >= 1 << 16 { try flush() }
        }

        /// Named as FileHandle's throwing write is: every failure (a full disk, a closed pipe) is thrown, none traps.
        public mutating func write(contentsOf data: Data) throws {
            if showsControls { return try write(String(decoding: data, as: UTF8.self)) }
            buffer.append(data)
            if buffer.count >= 1 << 16 { try flush() }
        }

        public mutating func flush() throws {
            try buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        if errno == EAGAIN {
                            // A descriptor someone else made non-blocking: wait until it takes more.
                            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                            _ = poll(&ready, 1, -1)
                            continue
                        }
                        throw WriteError(path: path, step: "write", code: errno, inPlace: inPlace)
                    }
                    offset += written
                }
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}

/// What is at a path, as far as writing it goes; a final symbolic link is not followed.
enum PathOccupant {
    case nothing
    case regularFile(mode: mode_t, owner: uid_t, group: gid_t)
    case symbolicLink(target: String)
    case fifo, characterDevice, blockDevice, folder, socket

    init(_ path: String) {
        var info = stat()
        // A path that cannot be examined (a missing folder, no permission) fails when it is created.
        guard lstat(path, &info) == 0 else { self = .nothing; return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regularFile(mode: info.st_mode, owner: info.st_uid, group: info.st_gid)
        case S_IFLNK:
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            self = .symbolicLink(target: target)
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFDIR: self = .folder
        default: self = .socket
        }
    }

    /// Why a rename may not replace it (nil: nothing there, or a regular file).
    var refusal: String? {
        switch self {
        case .nothing, .regularFile: nil
        case .symbolicLink(let target):
            "it is a symbolic link (to \(target)), and Rigbook replaces only the file it is given:"
                + " name the file itself, or remove the link"
        case .fifo: "it is a named pipe (FIFO), not a regular file"
        case .characterDevice: "it is a device, not a regular file"
        case .blockDevice: "it is a block device, not a regular file"
        case .folder: "it is a folder"
        case .socket: "it is a socket, not a regular file"
        }
    }
}
