import Foundation

/// Durable atomic replacement of a small file: temp file in the same folder, fsync, rename, fsync of
/// the folder. A reader sees the whole old file or the whole new one, even after a power cut.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let step: String
        public let code: Int32
        public var description: String { "cannot write \(path) (\(step): \(String(cString: strerror(code))))" }
    }

    /// `beforeRename` is a test hook called with the temp path once it is complete and synced: a
    /// throw there simulates a crash between the write and the rename.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o600,
                             beforeRename: ((String) throws -> Void)? = nil) throws {
        try stream(to: path, mode: mode, beforeRename: beforeRename) { try $0.write(data) }
    }

    /// Writes a large file piece by piece with the same guarantees: readers see the old file until
    /// the new one is whole.
    /// `createFolder` makes a missing folder (0700), as the data home needs; files a person names
    /// (`--out`) must go into a folder that exists.
    public static func stream(to path: String, mode: mode_t = 0o600, createFolder: Bool = true,
                              beforeRename: ((String) throws -> Void)? = nil,
                              _ body: (inout Writer) throws -> Void) throws {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        if createFolder { try DataHome.makePrivateDirectory(folder) }
        var template = Array((folder + "/." + (path as NSString).lastPathComponent + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw WriteError(path: path, step: "create temp file", code: errno) }
        let tempPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer { if !renamed { unlink(tempPath) } }
        do {
            defer { close(fd) }
            guard fchmod(fd, mode) == 0 else { throw WriteError(path: path, step: "chmod", code: errno) }
            var writer = Writer(fd: fd, path: path)
            try body(&writer)
            try writer.flush()
            guard fsync(fd) == 0 else { throw WriteError(path: path, step: "fsync", code: errno) }
        }
        try beforeRename?(tempPath)
        guard rename(tempPath, path) == 0 else { throw WriteError(path: path, step: "rename", code: errno) }
        renamed = true
        let dirFD = open(folder, O_RDONLY | O_DIRECTORY)
        if dirFD >= 0 {
            defer { close(dirFD) }
            guard fsync(dirFD) == 0 else { throw WriteError(path: path, step: "fsync folder", code: errno) }
        }
    }

    /// Buffered writes to the temp file (loops on EINTR and short writes).
    public struct Writer {
        let fd: Int32
        let path: String
        private var buffer = Data()

        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }

        public mutating func write(_ text: String) throws {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= 1 << 16 { try flush() }
        }

        public mutating func write(_ data: Data) throws {
            buffer.append(data)
            if buffer.count >= 1 << 16 { try flush() }
        }

        mutating func flush() throws {
            try buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw WriteError(path: path, step: "write", code: errno)
                    }
                    offset += written
                }
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
