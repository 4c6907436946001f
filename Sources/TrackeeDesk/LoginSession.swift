/// The user's logind session: where its lock and idle state live.
///
/// Found the way a desktop's own tools find it: the session named by
/// `$XDG_SESSION_ID` (set inside a graphical login), else the user's
/// `Display` session (the graphical one logind picked), else the user's
/// first session.
struct LoginSession {
    static let service = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"
    static let interface = "org.freedesktop.login1.Session"

    /// `$XDG_SESSION_ID`, when trackee runs inside the session.
    var sessionID: String?
    var uid: UInt32

    /// The session's object path. Throws when logind is not on the bus or
    /// has no session of this user.
    func path(on connection: DBusConnection) throws -> String {
        // A session that ended (a stale variable) is no reason to give up: the user may have another.
        if let sessionID, !sessionID.isEmpty, let reply = try? manager(connection, "GetSession", [.string(sessionID)]),
           reply.count == 1, case .objectPath(let path) = reply[0] {
            return path
        }
        // A user without a session is an error here; the list below says so better.
        let user = (try? manager(connection, "GetUser", [.uint32(uid)])) ?? []
        if user.count == 1, case .objectPath(let userPath) = user[0],
           let display = try? connection.property(
               destination: Self.service, path: userPath, interface: "org.freedesktop.login1.User", name: "Display"),
           case .structure(let fields) = display, fields.count == 2, case .objectPath(let path) = fields[1], path != "/" {
            return path
        }
        let sessions = try manager(connection, "ListSessions", [])
        if sessions.count == 1, case .array(_, let rows) = sessions[0] {
            for row in rows {
                // (session id, uid, user name, seat, path)
                if case .structure(let fields) = row, fields.count == 5, fields[1] == .uint32(uid),
                   case .objectPath(let path) = fields[4] {
                    return path
                }
            }
        }
        throw DBusFailure("logind has no session of user \(uid).")
    }

    private func manager(_ connection: DBusConnection, _ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        try connection.call(destination: Self.service, path: Self.managerPath, interface: Self.manager, member: member,
                            arguments: arguments)
    }
}
