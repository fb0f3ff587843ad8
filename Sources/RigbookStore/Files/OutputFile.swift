import Foundation

/// A file a person names for Rigbook to write (`--out`), in a folder that must exist.
///
/// - A new path or a regular file is written atomically (`AtomicFile`, `.user` permissions).
/// - A FIFO or a character device (a terminal, /dev/null) has no contents to replace: it is opened and
///   written in place, as a shell's `>` would; on a terminal, in caret notation.
/// - A symbolic link, a folder, a block device or a socket is refused before anything is written.
///   A link is never followed: whatever it points at, the only file Rigbook replaces is the one named.
public enum OutputFile {
    public static func write(to path: String, _ body: (inout AtomicFile.Writer) throws -> Void) throws {
        switch PathOccupant(path) {
        case .fifo, .characterDevice:
            try writeInPlace(path, body)
        default:
            try AtomicFile.stream(to: path, permissions: .user, createFolder: false, body)
        }
    }

    private static func writeInPlace(_ path: String, _ body: (inout AtomicFile.Writer) throws -> Void) throws {
        // No O_CREAT, no O_TRUNC: if the FIFO or device was swapped for a file meanwhile, the check
        // below refuses it before a byte is written.
        let fd = open(path, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw AtomicFile.WriteError(path: path, step: "open", code: errno, inPlace: true) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw AtomicFile.WriteError(path: path, step: "stat", code: errno, inPlace: true)
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFIFO || kind == S_IFCHR else {
            throw AtomicFile.Refusal(path: path, reason: "it changed while being opened")
        }
        var writer = AtomicFile.Writer(descriptor: fd, name: path)
        try body(&writer)
        try writer.flush()
    }
}
