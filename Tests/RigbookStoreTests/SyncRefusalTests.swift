import Foundation
import Testing
import RigbookTestSupport
@testable import RigbookCore
@testable import RigbookStore

/// A failed sync says whose move it is: a refusal someone must put right names the fix, and is never "sync again
/// later"; a server that cannot be reached or does not answer is to be tried later, and says what it waited for.
@Suite("A sync that fails says what to do")
struct SyncRefusalTests {
    private func refusal(_ url: String) throws -> ServerError {
        try #require(throws: ServerError.self) { _ = try PostgresConnection(url: url) }
    }

    /// The refusal of a connection to the test cluster as `role`, to a new database unless `database` is named.
    private func refusal(database: String? = nil, role: String = "postgres",
                         password: String? = nil) throws -> ServerError {
        let cluster = try ThrowawayPostgres.shared()
        return try refusal(cluster.url(database: try database ?? cluster.createDatabaseNamed(), role: role,
                                       password: password))
    }

    @Test("a wrong password needs the right one, in ~/.pgpass")
    func wrongPassword() throws {
        let error = try refusal(role: ThrowawayPostgres.passwordRole, password: "hunter2")
        #expect(error.cause == .needsAction(problem: "wrong password"), "\(error)")
        #expect(error.message.contains("refused the password for role \"password_checked\""), "\(error)")
        #expect(error.message.contains("~/.pgpass") && !error.message.contains("later"), "\(error)")
        #expect(!error.message.contains("hunter2"), "the password given is not shown: \(error)")
        #expect(!error.message.contains("LOCATION") && !error.message.contains("28P01"), "\(error)")
        // The right one is let in: the refusal was the password's.
        let cluster = try ThrowawayPostgres.shared()
        _ = try PostgresConnection(url: cluster.url(database: try cluster.createDatabaseNamed(),
                                                    role: ThrowawayPostgres.passwordRole,
                                                    password: ThrowawayPostgres.rightPassword))
    }

    @Test("no password where one is asked needs one")
    func noPassword() throws {
        let error = try refusal(role: ThrowawayPostgres.passwordRole)
        #expect(error.cause == .needsAction(problem: "no password"), "\(error)")
        #expect(error.message.contains("~/.pgpass"), "\(error)")
    }

    @Test("a database that is not there needs making, or the URL correcting")
    func missingDatabase() throws {
        let error = try refusal(database: "no_such_register")
        #expect(error.cause == .needsAction(problem: "no database"), "\(error)")
        #expect(error.message.contains("has no database \"no_such_register\"") && error.message
            .contains("createdb --owner postgres no_such_register"), "\(error)")
    }

    @Test("a role the server does not know needs creating, or the URL correcting")
    func missingRole() throws {
        let error = try refusal(role: "nobody_here")
        #expect(error.cause == .needsAction(problem: "role refused"), "\(error)")
        #expect(error.message.contains("role \"nobody_here\" does not exist"), "the server's words: \(error)")
        #expect(error.message.contains("create it with LOGIN"), "\(error)")
    }

    @Test("a role that may not make the server's tables needs the database given to it")
    func permissionDenied() throws {
        let cluster = try ThrowawayPostgres.shared()
        let name = try cluster.createDatabaseNamed()
        try withTemporaryDirectory { folder in
            let register = try Register.open(path: registerPath(in: folder))
            let error = try #require(throws: ServerError.self) {
                try register.sync(url: cluster.url(database: name, role: ThrowawayPostgres.notOwnerRole))
            }
            #expect(error.cause == .needsAction(problem: "no permission"), "\(error)")
            #expect(error.message.contains("permission denied"), "the server's words: \(error)")
            #expect(error.message.contains("ALTER DATABASE \(name) OWNER TO not_owner"), "\(error)")
        }
    }

    @Test("a URL's password is never shown, wherever the URL gives it")
    func passwordsAreTakenOutOfURLs() {
        #expect(ServerURL.redacted("postgresql://rigbook:s3cret@office/rigbook")
                == "postgresql://rigbook:…@office/rigbook")
        #expect(ServerURL.redacted("postgresql:///rigbook?host=/run&password=s3cret&user=x")
                == "postgresql:///rigbook?host=/run&password=…&user=x")
        #expect(ServerURL.redacted("host=office password='s3 cret' dbname=rigbook")
                == "host=office password=… dbname=rigbook")
        #expect(ServerURL.redacted("postgresql://office/rigbook") == "postgresql://office/rigbook")
    }

    @Test("a port where nothing listens is to be tried later")
    func refusedConnection() throws {
        let port = try SilentListener.closedPort()
        let error = try refusal("postgresql://127.0.0.1:\(port)/rigbook")
        #expect(error.cause == .tryLater, "\(error)")
        #expect(error.message.hasPrefix("cannot reach the server"), "\(error)")
    }

    @Test("a server that accepts and never answers is to be tried later, and the wait is named")
    func silentServer() throws {
        let listener = try SilentListener()
        let started = ProcessInfo.processInfo.systemUptime
        let error = try refusal(listener.url(connectTimeout: 2))
        // libpq times the wait on its own clock: seen from this one it may end a few microseconds short of 2 s.
        #expect(ProcessInfo.processInfo.systemUptime - started >= 1.9, "the URL's connect_timeout holds")
        #expect(error.cause == .tryLater, "\(error)")
        #expect(error.message.contains("127.0.0.1 port \(listener.port) accepted the connection but did not answer"
                                       + " the login in 2 s"), "\(error)")
    }
}
