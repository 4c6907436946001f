import TrackeeCore

/// `hub check`: reads the catalogs, as any person may, for what would let
/// one person past the database to another's timeline. What the schema
/// should be is ``HubSchema/ownerAndPersons``; this lists it again, so
/// that a change there that this does not know of is found.
enum HubCheck {
    /// The tables, and the policies each has (and no other).
    static let policies: [String: Set<String>] = [
        "trackee_migration": ["migration_trackee", "migration_seen"],
        "device": ["device_trackee", "device_seen"],
        "change": ["change_trackee", "change_read", "change_write"],
        "share": ["share_trackee", "share_seen", "share_given", "share_changed", "share_taken"],
        "person": ["person_trackee", "person_self"],
    ]

    /// The triggers that bind every insert and revocation.
    static let triggers: [String: Set<String>] = [
        "change": ["change_turn", "change_told"],
        "share": ["share_revoked"],
    ]

    /// What trackee_person is granted, object by object: the most any
    /// person may have.
    static let granted: [String: Set<String>] = {
        var granted: [String: Set<String>] = [
            "schema trackee": ["USAGE"],
            "table trackee.trackee_migration": ["SELECT"],
            "table trackee.change": ["SELECT"],
            "table trackee.share": ["SELECT", "INSERT", "UPDATE", "DELETE"],
            "table trackee.person": ["SELECT"],
            "function trackee.register": ["EXECUTE"],
            "function trackee.channel": ["EXECUTE"],
        ]
        for column in ["name", "owner", "timeline", "number", "registered"] {
            granted["column trackee.device.\(column)"] = ["SELECT"]
        }
        for column in ["person", "device", "sequence", "clock", "kind", "body"] {
            granted["column trackee.change.\(column)"] = ["INSERT"]
        }
        return granted
    }()

    /// The schema's oid, for the catalogs' queries.
    private static let schema = "(SELECT oid FROM pg_namespace WHERE nspname = 'trackee')"

    static func run(_ connection: HubConnection) throws(HubFailure) -> HubCheckReport {
        let role = try HubPersons.currentRole(connection)
        var findings = try roleFindings(role, connection)
        guard try connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = 'trackee'").count == 1 else {
            findings.insert(HubFinding(
                object: "schema trackee", kind: "missing",
                problem: "is missing: an older trackee set up this hub, or none did; its administrator runs trackee hub init"),
                at: 0)
            return HubCheckReport(role: role, findings: findings)
        }
        findings += try ownerFindings(connection)
        findings += try memberFindings(connection)
        findings += try grantFindings(connection)
        findings += try securityFindings(connection)
        return HubCheckReport(role: role, findings: findings)
    }

    /// The role this check connects as, which should be a person that
    /// row-level security binds.
    private static func roleFindings(_ role: String, _ connection: HubConnection) throws(HubFailure) -> [HubFinding] {
        guard let row = try connection.execute(
            "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user").first
        else { return [] }
        var findings: [HubFinding] = []
        if row[0] == "t" {
            findings.append(HubFinding(
                object: "role \(role)", kind: "role",
                problem: "you connect as it, and it is a superuser: row-level security does not bind it"))
        } else {
            if row[1] == "t" {
                findings.append(HubFinding(
                    object: "role \(role)", kind: "role",
                    problem: "you connect as it, and it has BYPASSRLS: row-level security does not bind it"))
            }
            if try !HubPersons.isPerson(role, on: connection) {
                findings.append(HubFinding(
                    object: "role \(role)", kind: "role",
                    problem: "you connect as it, and it is not a person on this hub (a member of trackee_person)"))
            }
        }
        return findings
    }

    /// Everything in the schema, and the schema, belongs to trackee_owner:
    /// an owner can turn row-level security off, truncate, add policies
    /// and drop tables.
    private static func ownerFindings(_ connection: HubConnection) throws(HubFailure) -> [HubFinding] {
        try connection.execute("""
            SELECT object, owner FROM (
                SELECT 'schema trackee' AS object, pg_get_userbyid(n.nspowner) AS owner
                FROM pg_namespace n WHERE n.nspname = 'trackee'
                UNION ALL
                SELECT (CASE c.relkind WHEN 'S' THEN 'sequence' WHEN 'v' THEN 'view' ELSE 'table' END)
                       || ' trackee.' || c.relname, pg_get_userbyid(c.relowner)
                FROM pg_class c WHERE c.relnamespace = \(schema) AND c.relkind IN ('r', 'p', 'S', 'v', 'm', 'f')
                UNION ALL
                SELECT 'function trackee.' || p.proname, pg_get_userbyid(p.proowner)
                FROM pg_proc p WHERE p.pronamespace = \(schema)) o
            WHERE owner <> 'trackee_owner' ORDER BY object
            """).compactMap { row in
            guard let object = row[0], let owner = row[1] else { return nil }
            return HubFinding(object: object, kind: "owner", problem: "is owned by \(owner), not trackee_owner")
        }
    }

    /// A person who is a member of trackee_owner may do what it may.
    private static func memberFindings(_ connection: HubConnection) throws(HubFailure) -> [HubFinding] {
        let members = try connection.execute("""
            WITH RECURSIVE members(oid) AS (
                SELECT m.member FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                WHERE g.rolname = 'trackee_owner'
                UNION SELECT m.member FROM pg_auth_members m JOIN members s ON m.roleid = s.oid)
            SELECT r.rolname FROM members s JOIN pg_roles r ON r.oid = s.oid ORDER BY r.rolname
            """).compactMap { $0.first ?? nil }
        var findings: [HubFinding] = []
        for member in members where try HubPersons.isPerson(member, on: connection) {
            findings.append(HubFinding(
                object: "role \(member)", kind: "member",
                problem: "is a person and a member of trackee_owner, which owns the hub's tables"))
        }
        return findings
    }

    /// Nothing to PUBLIC, nothing to any one role, and to trackee_person
    /// no more than ``granted``.
    private static func grantFindings(_ connection: HubConnection) throws(HubFailure) -> [HubFinding] {
        let rows = try connection.execute("""
            SELECT x.object, CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END,
                   a.privilege_type
            FROM (
                SELECT 'schema trackee' AS object, coalesce(n.nspacl, acldefault('n'::"char", n.nspowner)) AS acl,
                       n.nspowner AS owner
                FROM pg_namespace n WHERE n.nspname = 'trackee'
                UNION ALL
                SELECT (CASE c.relkind WHEN 'S' THEN 'sequence' WHEN 'v' THEN 'view' ELSE 'table' END)
                       || ' trackee.' || c.relname,
                       coalesce(c.relacl, acldefault((CASE c.relkind WHEN 'S' THEN 's' ELSE 'r' END)::"char", c.relowner)),
                       c.relowner
                FROM pg_class c WHERE c.relnamespace = \(schema) AND c.relkind IN ('r', 'p', 'S', 'v', 'm', 'f')
                UNION ALL
                SELECT 'column trackee.' || c.relname || '.' || a.attname, a.attacl, c.relowner
                FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                WHERE c.relnamespace = \(schema) AND a.attacl IS NOT NULL AND a.attnum > 0 AND NOT a.attisdropped
                UNION ALL
                SELECT 'function trackee.' || p.proname, coalesce(p.proacl, acldefault('f'::"char", p.proowner)), p.proowner
                FROM pg_proc p WHERE p.pronamespace = \(schema)) x,
                LATERAL aclexplode(x.acl) a
            WHERE a.grantee <> x.owner AND a.grantee <> coalesce((SELECT oid FROM pg_roles WHERE rolname = 'trackee_owner'), 0)
            """)
        var privileges: [String: [String: Set<String>]] = [:]
        for row in rows {
            guard let object = row[0], let grantee = row[1], let privilege = row[2] else { continue }
            privileges[object, default: [:]][grantee, default: []].insert(privilege)
        }
        var findings: [HubFinding] = []
        for (object, grantees) in privileges.sorted(by: { $0.key < $1.key }) {
            for (grantee, given) in grantees.sorted(by: { order($0.key) < order($1.key) }) {
                switch grantee {
                case "PUBLIC":
                    findings.append(HubFinding(
                        object: object, kind: "public", problem: "grants \(listed(given)) to PUBLIC"))
                case HubPersons.group:
                    let extra = given.subtracting(granted[object] ?? [])
                    if !extra.isEmpty {
                        findings.append(HubFinding(
                            object: object, kind: "grant",
                            problem: "grants \(listed(extra)) to trackee_person, more than persons need"))
                    }
                default:
                    findings.append(HubFinding(
                        object: object, kind: "grant", problem: "grants \(listed(given)) to \(grantee)"))
                }
            }
        }
        return findings
    }

    /// PUBLIC first, then the roles by name.
    private static func order(_ grantee: String) -> String { grantee == "PUBLIC" ? "" : grantee }

    private static func listed(_ privileges: Set<String>) -> String { privileges.sorted().joined(separator: ", ") }

    /// Row-level security on every table, enabled and forced, with the
    /// policies and triggers trackee makes, and no others.
    private static func securityFindings(_ connection: HubConnection) throws(HubFailure) -> [HubFinding] {
        var findings: [HubFinding] = []
        var present: Set<String> = []
        for row in try connection.execute("""
            SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c
            WHERE c.relnamespace = \(schema) AND c.relkind IN ('r', 'p') ORDER BY c.relname
            """) {
            guard let table = row[0] else { continue }
            present.insert(table)
            if row[1] != "t" {
                findings.append(HubFinding(
                    object: "table trackee.\(table)", kind: "rls", problem: "row-level security is not enabled"))
            }
            if row[2] != "t" {
                findings.append(HubFinding(
                    object: "table trackee.\(table)", kind: "rls",
                    problem: "row-level security is not forced, so its owner is not bound by it"))
            }
        }
        for table in policies.keys.sorted() where !present.contains(table) {
            findings.append(HubFinding(object: "table trackee.\(table)", kind: "missing", problem: "is missing"))
        }
        var made: [String: Set<String>] = [:]
        for row in try connection.execute("""
            SELECT c.relname, p.polname FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
            WHERE c.relnamespace = \(schema)
            """) {
            if let table = row[0], let policy = row[1] { made[table, default: []].insert(policy) }
        }
        for table in present.sorted() {
            let expected = policies[table] ?? [], found = made[table] ?? []
            for policy in expected.subtracting(found).sorted() {
                findings.append(HubFinding(
                    object: "table trackee.\(table)", kind: "policy", problem: "lacks policy \(policy)"))
            }
            for policy in found.subtracting(expected).sorted() {
                findings.append(HubFinding(
                    object: "table trackee.\(table)", kind: "policy",
                    problem: "has policy \(policy), which trackee does not make"))
            }
        }
        var fired: [String: [String: String]] = [:]
        for row in try connection.execute("""
            SELECT c.relname, t.tgname, t.tgenabled FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
            WHERE c.relnamespace = \(schema) AND NOT t.tgisinternal
            """) {
            if let table = row[0], let trigger = row[1] { fired[table, default: [:]][trigger] = row[2] ?? "" }
        }
        for (table, expected) in triggers.sorted(by: { $0.key < $1.key }) where present.contains(table) {
            for trigger in expected.sorted() {
                switch fired[table]?[trigger] {
                case nil:
                    findings.append(HubFinding(
                        object: "table trackee.\(table)", kind: "trigger", problem: "lacks trigger \(trigger)"))
                case "D":
                    findings.append(HubFinding(
                        object: "table trackee.\(table)", kind: "trigger", problem: "has trigger \(trigger) disabled"))
                default:
                    break
                }
            }
        }
        return findings
    }
}
