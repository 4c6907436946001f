import CLibpq
import Glibc
import TrackeeCore

/// Why the hub could not be used, as one sentence.
public struct HubFailure: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// One libpq connection to the hub. The C pointer stays inside this type.
final class HubConnection {
    private let connection: OpaquePointer

    /// Connects with the settings' URL, user, password and sslmode, within
    /// `timeout` seconds. GSSAPI is off: the static build has no Kerberos.
    /// The application name is `trackee` alone: every role on the server
    /// sees each connection's (pg_stat_activity), and a device's name is
    /// its person's business.
    init(_ settings: HubSettings, password: String?, timeout: Int = 5) throws(HubFailure) {
        var pairs: [(String, String)] = [
            ("dbname", settings.url), ("sslmode", settings.sslmode.rawValue), ("gssencmode", "disable"),
            ("connect_timeout", String(timeout)), ("application_name", "trackee"),
        ]
        if let user = settings.user { pairs.append(("user", user)) }
        if let password { pairs.append(("password", password)) }
        let keys = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer { (keys + values).forEach { free($0) } }
        var keyPointers: [UnsafePointer<CChar>?] = keys.map { $0.map { UnsafePointer($0) } } + [nil]
        var valuePointers: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } } + [nil]
        // expand_dbname 1: the first dbname is read as a connection URI.
        guard let made = PQconnectdbParams(&keyPointers, &valuePointers, 1) else {
            throw HubFailure("cannot reach the hub at \(HubSettings.shown(settings.url)): out of memory")
        }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.firstLine(PQerrorMessage(made))
            PQfinish(made)
            throw HubFailure("cannot reach the hub at \(HubSettings.shown(settings.url)): \(message)")
        }
        // Notices ("relation … already exists, skipping") are the server
        // talking to itself; libpq would print them on stderr.
        PQsetNoticeProcessor(made, { _, _ in }, nil)
        connection = made
    }

    deinit { PQfinish(connection) }

    /// Runs a statement with text parameters, or statements without any;
    /// returns the (last) statement's rows as text, nil for NULL.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(HubFailure) -> [[String?]] {
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        // Without parameters, PQexec, which also takes several statements
        // (a migration); with them, one statement.
        let made = parameters.isEmpty
            ? PQexec(connection, sql) : PQexecParams(connection, sql, Int32(parameters.count), nil, &pointers, nil, nil, 0)
        guard let result = made else {
            throw HubFailure("the hub did not answer: \(Self.firstLine(PQerrorMessage(connection)))")
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            break
        default:
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            // The hub's own functions refuse in whole sentences (SQLSTATE
            // class TK), meant for the person as they are.
            if let primary, state?.hasPrefix("TK") == true { throw HubFailure(primary) }
            throw HubFailure("the hub refused a statement: \(primary ?? Self.firstLine(PQerrorMessage(connection)))")
        }
        let rows = PQntuples(result), fields = PQnfields(result)
        return (0..<rows).map { row in
            (0..<fields).map { field in
                PQgetisnull(result, row, field) == 1 ? nil : String(cString: PQgetvalue(result, row, field))
            }
        }
    }

    /// The server process this connection talks to: the sender of the
    /// notifications its own statements cause.
    var backendPID: Int32 { PQbackendPID(connection) }

    /// Waits up to `milliseconds` (0: not at all) for notifications on a
    /// channel this connection listens to; returns the server processes
    /// that sent them (none on a timeout).
    func waitForNotification(milliseconds: Int32) throws(HubFailure) -> [Int32] {
        var senders = Self.drain(connection)
        guard senders.isEmpty else { return senders }
        var socket = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        guard socket.fd >= 0 else { throw HubFailure("the connection to the hub is closed") }
        let ready = poll(&socket, 1, milliseconds)
        if ready < 0 && errno != EINTR { throw HubFailure("cannot wait for the hub: \(String(cString: strerror(errno)))") }
        guard ready > 0 else { return [] }
        guard PQconsumeInput(connection) == 1 else {
            throw HubFailure("the connection to the hub broke: \(Self.firstLine(PQerrorMessage(connection)))")
        }
        senders = Self.drain(connection)
        return senders
    }

    private static func drain(_ connection: OpaquePointer) -> [Int32] {
        var senders: [Int32] = []
        while let notice = PQnotifies(connection) {
            senders.append(notice.pointee.be_pid)
            PQfreemem(notice)
        }
        return senders
    }

    /// Runs `body` in one transaction, rolled back if it throws.
    func transaction<T>(_ body: () throws(HubFailure) -> T) throws(HubFailure) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    private static func firstLine(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        let line = String(cString: text).split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? "unknown error" : line
    }
}
