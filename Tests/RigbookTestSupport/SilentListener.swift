import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 that takes connections (the kernel completes them into its backlog) and never
/// says a word: a server that accepts and never answers. Closed when released.
public final class SilentListener: Sendable {
    public let port: UInt16
    private let descriptor: Int32

    public init() throws {
        (descriptor, port) = try Self.bound()
        guard listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ListenerError("listen: \(reason)")
        }
    }

    deinit { close(descriptor) }

    /// A URL of a PostgreSQL server at this listener, waiting `seconds` to connect.
    public func url(connectTimeout seconds: Int) -> String {
        "postgresql://127.0.0.1:\(port)/rigbook?connect_timeout=\(seconds)"
    }

    /// A port on 127.0.0.1 where nothing listens: bound for a moment to learn a free one, then closed, so a
    /// connection there is refused.
    public static func closedPort() throws -> UInt16 {
        let (descriptor, port) = try bound()
        close(descriptor)
        return port
    }

    /// A socket bound to 127.0.0.1 on a port the system chose, and that port.
    private static func bound() throws -> (Int32, UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ListenerError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard named else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ListenerError("bind: \(reason)")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    public struct ListenerError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
