import TrackeeCore

/// Who is who on the hub: `trackee_owner`, the role no one logs in as
/// that owns the schema; `trackee_person`, whose members are the persons;
/// and the administrator, who is neither and makes both (`hub init`,
/// `hub limit`).
enum HubPersons {
    static let owner = "trackee_owner"
    static let group = "trackee_person"

    /// Membership in trackee_person, direct or through other roles. Not
    /// `pg_has_role`, which counts a superuser as a member of every role.
    static let membership = """
        WITH RECURSIVE under(oid) AS (
            SELECT m.roleid FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = $1
            UNION SELECT m.roleid FROM pg_auth_members m JOIN under u ON m.member = u.oid)
        SELECT EXISTS (SELECT 1 FROM under u JOIN pg_roles g ON g.oid = u.oid WHERE g.rolname = 'trackee_person')
        """

    static func isPerson(_ role: String, on connection: HubConnection) throws(HubFailure) -> Bool {
        try connection.execute(membership, [role]).first?[0] == "t"
    }

    /// The roles that log in as persons, by name.
    static func all(_ connection: HubConnection) throws(HubFailure) -> [String] {
        try connection.execute("""
            WITH RECURSIVE members(oid) AS (
                SELECT m.member FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                WHERE g.rolname = 'trackee_person'
                UNION SELECT m.member FROM pg_auth_members m JOIN members s ON m.roleid = s.oid)
            SELECT r.rolname FROM members s JOIN pg_roles r ON r.oid = s.oid WHERE r.rolcanlogin ORDER BY r.rolname
            """).compactMap { $0.first ?? nil }
    }

    static func currentRole(_ connection: HubConnection) throws(HubFailure) -> String {
        guard let role = try connection.execute("SELECT current_user").first?.first ?? nil else {
            throw HubFailure("the hub did not say who this is")
        }
        return role
    }

    static func notAPerson(_ role: String) -> HubFailure {
        HubFailure(
            "\(role) is not a person on this hub; its administrator makes each person's role a member of trackee_person")
    }

    /// Refuses a person: the administrator's commands change what binds
    /// every person, and a person's role must own nothing.
    static func refusePerson(_ connection: HubConnection, command: String) throws(HubFailure) {
        let role = try currentRole(connection)
        if try isPerson(role, on: connection) {
            throw HubFailure(
                "\(command) is the administrator's, and \(role) is a person on this hub (a member of trackee_person); "
                    + "run it as the administrator's role with --user ROLE")
        }
    }

    /// Sets how many devices `person` may register (their own and the
    /// copies they keep of others' timelines).
    static func limit(_ connection: HubConnection, person: String, devices: Int) throws(HubFailure) -> HubLimitReport {
        try refusePerson(connection, command: "hub limit")
        try HubMigrator.check(connection)
        guard try isPerson(person, on: connection) else {
            throw HubFailure(
                "\(person) is not a person on this hub; make the role one first (GRANT trackee_person TO \(person))")
        }
        let row = try connection.execute("""
            WITH set AS (
                INSERT INTO trackee.person (name, devices) VALUES ($1, $2)
                ON CONFLICT (name) DO UPDATE SET devices = excluded.devices
                RETURNING devices)
            SELECT (SELECT devices FROM set), (SELECT count(*) FROM trackee.device WHERE owner = $1)
            """, [person, String(devices)]).first
        guard let row, let set = row[0].flatMap({ Int($0) }), let registered = row[1].flatMap({ Int($0) }) else {
            throw HubFailure("the hub did not set \(person)'s limit")
        }
        return HubLimitReport(person: person, devices: set, registered: registered)
    }
}
