import Foundation
import Glibc

/// Reading a file the data home may hold without trusting what it is: a regular file only (no link followed, no
/// FIFO waited on, no device), and only up to a bound, so a file swapped for something else is not read.
enum RegularFile {
    /// The file's bytes, up to `limit`; nil for a link, a FIFO, a device, a bigger file or none.
    static func read(_ path: String, limit: Int) -> Data? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit else { return nil }
        var data = Data(count: Int(info.st_size))
        var count = 0
        while count < data.count {
            let got = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return data.prefix(count)
    }
}
