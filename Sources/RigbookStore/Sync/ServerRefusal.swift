/// The server's refusals that someone must put right before any sync can work, told apart by their SQLSTATE
/// (the server's words may be in any language), each with what to do in words. Trying again changes nothing
/// until then, so they are never said as "sync again later".
enum ServerRefusal {
    /// 28P01: the password was wrong (or, as the server hides it, the role does not exist).
    case wrongPassword
    /// The server asks a password and none was given (libpq's own, no SQLSTATE).
    case noPassword
    /// Class 28: no such role, a role that may not log in, or no pg_hba.conf entry that lets it connect.
    case roleRefused
    /// 3D000: no database of that name.
    case noDatabase
    /// 42501: a permission the sync needs (to make the server's tables, to read or add to them).
    case noPermission

    init?(sqlState code: String) {
        switch code {
        case "28P01": self = .wrongPassword
        case "3D000": self = .noDatabase
        case "42501": self = .noPermission
        case _ where code.hasPrefix("28"): self = .roleRefused
        default: return nil
        }
    }

    /// A server that is there but cannot take the connection now: connection exceptions (08), too many
    /// connections (53), starting up or shutting down (57). Trying later is the remedy.
    static func isTemporary(_ code: String) -> Bool { ["08", "53", "57"].contains(String(code.prefix(2))) }

    /// The SQLSTATE and the server's own words in a verbose libpq message
    /// (`… failed: FATAL:  28P01: password authentication failed for user "x"`), from its last such line.
    static func sqlState(in message: String) -> (code: String, serverSays: String)? {
        for line in message.split(separator: "\n").reversed() {
            guard let marker = line.range(of: ":  ") else { continue }
            let rest = line[marker.upperBound...]
            let code = rest.prefix(5)
            guard code.count == 5, code.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
                  rest.dropFirst(5).hasPrefix(": ") else { continue }
            return (String(code), String(rest.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// A few words for the list's header ("sync needs you: wrong password").
    var problem: String {
        switch self {
        case .wrongPassword: "wrong password"
        case .noPassword: "no password"
        case .roleRefused: "role refused"
        case .noDatabase: "no database"
        case .noPermission: "no permission"
        }
    }

    /// The sentence: what the server refused, then what to do about it.
    func error(server: String, serverSays: String, role: String, database: String) -> ServerError {
        let passwordFile = "~/.pgpass (a line HOST:PORT:DATABASE:ROLE:PASSWORD, mode 0600)"
        let sentence = switch self {
        case .wrongPassword:
            "the server \(server) refused the password for role \"\(role)\": put the right one in \(passwordFile),"
                + " or ask the server's administrator to set it"
        case .noPassword:
            "the server \(server) asks a password for role \"\(role)\" and none was given: put it in \(passwordFile)"
        case .roleRefused:
            "the server \(server) does not let role \"\(role)\" in (\(serverSays)): correct the role in the URL"
                + " (user=…), or ask the server's administrator to create it with LOGIN and let it connect to"
                + " \"\(database)\" (pg_hba.conf)"
        case .noDatabase:
            "the server \(server) has no database \"\(database)\": correct the database in the URL, or make it"
                + " (sudo -u postgres createdb --owner \(role) \(database))"
        case .noPermission:
            "the server \(server) refused role \"\(role)\" a permission it needs (\(serverSays)): ask the server's"
                + " administrator to make \(role) the owner of \"\(database)\" (ALTER DATABASE \(database) OWNER TO"
                + " \(role)) or grant it"
        }
        return ServerError(sentence + "; then try again", cause: .needsAction(problem: problem))
    }
}
