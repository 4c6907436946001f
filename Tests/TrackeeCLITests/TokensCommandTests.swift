import Foundation
import GRDB
import Testing
import TrackeeTestSupport

/// `trackee tokens`: the secret is printed once, by `add`, and then by
/// nothing: no other command's output and no file of the store.
@Suite struct TokensCommandTests {
    /// The secret of a successful `tokens add`, checking the two lines.
    private func add(_ t: Sandbox, _ arguments: [String], scopes: String,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let r = try t.run(["tokens", "add"] + arguments)
        #expect(r.status == 0, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr == "", sourceLocation: sourceLocation)
        #expect(r.lines.count == 2, "\(r)", sourceLocation: sourceLocation)
        #expect(r.lines.last == "token \"\(arguments[0])\" may \(scopes); copy it into the device now: it cannot be shown again",
                sourceLocation: sourceLocation)
        let secret = r.lines.first ?? ""
        #expect(secret.hasPrefix("trk_") && secret.utf8.count == 47, "\(r)", sourceLocation: sourceLocation)
        return secret
    }

    @Test func addListAndRevokePrintExactly() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("tokens", "list").lines == ["no tokens; `trackee tokens add NAME` makes one"])
        _ = try add(t, ["phone"], scopes: "start, stop, cancel, read, events, owntracks")
        t.now = "2026-11-20 12:05"
        _ = try add(t, ["hub", "--scope", "read,events", "--scope", "start"], scopes: "start, read, events")

        var r = try t.run("tokens", "list")
        #expect(r.status == 0)
        #expect(r.lines == [
            "hub    start,read,events                        created 2026-11-20T12:05:00+01:00  last used never",
            "phone  start,stop,cancel,read,events,owntracks  created 2026-11-20T12:00:00+01:00  last used never",
        ])

        // A request over HTTP records the use, and a sign-in on the web
        // page makes a session; here they are written directly: two live
        // sessions of phone's and an expired one, and one of hub's.
        let queue = try DatabaseQueue(path: t.storePath)
        try queue.write { db in
            try db.execute(sql: "UPDATE api_token SET last_used = ? WHERE name = 'hub'", arguments: [1_795_172_700])
            try Self.insertSessions(db, [
                ("3f2a9c1b", "phone", 1_795_172_460, 1_795_172_640, 1_795_172_460 + 30 * 86_400),
                ("0a1b2c3d", "phone", 1_795_172_520, 1_795_172_520, 1_795_172_520 + 86_400),
                ("ffffffff", "phone", 1_795_165_200, 1_795_165_200, 1_795_168_800),
                ("9e8d7c6b", "hub", 1_795_172_760, 1_795_172_760, 1_795_172_760 + 7 * 86_400),
            ])
        }
        try queue.close()

        let hubSession = "  session 9e8d7c6b  signed in 2026-11-20T12:06:00+01:00  last used 2026-11-20T12:06:00+01:00  "
            + "expires 2026-11-27T12:06:00+01:00"
        r = try t.run("tokens", "list", now: "2026-11-20 12:10")
        #expect(r.status == 0)
        #expect(r.lines == [
            "hub    start,read,events                        created 2026-11-20T12:05:00+01:00  last used 2026-11-20T12:05:00+01:00",
            hubSession,
            "phone  start,stop,cancel,read,events,owntracks  created 2026-11-20T12:00:00+01:00  last used never",
            "  session 3f2a9c1b  signed in 2026-11-20T12:01:00+01:00  last used 2026-11-20T12:04:00+01:00  "
                + "expires 2026-12-20T12:01:00+01:00",
            "  session 0a1b2c3d  signed in 2026-11-20T12:02:00+01:00  last used 2026-11-20T12:02:00+01:00  "
                + "expires 2026-11-21T12:02:00+01:00",
        ])

        t.now = "2026-11-20 13:00"
        r = try t.run("tokens", "revoke", "phone")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines == ["revoked token \"phone\"; its next request is refused, and its 2 web sessions ended"])
        #expect(try Self.sessionTokens(t) == ["hub"])

        r = try t.run("tokens", "list")
        #expect(r.lines == [
            "hub    start,read,events                        created 2026-11-20T12:05:00+01:00  last used 2026-11-20T12:05:00+01:00",
            hubSession,
            "phone  start,stop,cancel,read,events,owntracks  created 2026-11-20T12:00:00+01:00  last used never  revoked 2026-11-20T13:00:00+01:00",
        ])

        r = try t.run("tokens", "list", "--json")
        #expect(r.status == 0)
        #expect(try r.json() == .array([
            .object(["name": .string("hub"), "scopes": .array([.string("start"), .string("read"), .string("events")]),
                     "created": .string("2026-11-20T12:05:00+01:00"), "last_used": .string("2026-11-20T12:05:00+01:00"),
                     "sessions": .array([.object([
                         "id": .string("9e8d7c6b"), "created": .string("2026-11-20T12:06:00+01:00"),
                         "last_used": .string("2026-11-20T12:06:00+01:00"), "expires": .string("2026-11-27T12:06:00+01:00"),
                     ])])]),
            .object(["name": .string("phone"),
                     "scopes": .array(["start", "stop", "cancel", "read", "events", "owntracks"].map { .string($0) }),
                     "created": .string("2026-11-20T12:00:00+01:00"), "revoked": .string("2026-11-20T13:00:00+01:00"),
                     "sessions": .array([])]),
        ]))
        // Past its expiry, hub's session is listed no more.
        #expect(try t.run("tokens", "list", now: "2026-11-27 12:06").lines.count == 2)
    }

    /// Rows of `web_session`, as a sign-in on the web page writes them:
    /// (the hash's first 8 hex digits, padded to 64; token; created;
    /// last used; expires).
    static func insertSessions(_ db: Database, _ rows: [(String, String, Int64, Int64, Int64)]) throws {
        for (id, token, created, lastUsed, expires) in rows {
            try db.execute(
                sql: "INSERT INTO web_session (hash, token, created, last_used, expires) VALUES (?, ?, ?, ?, ?)",
                arguments: [id + String(repeating: "0", count: 56), token, created, lastUsed, expires])
        }
    }

    /// The token of each row of `web_session`, by token.
    static func sessionTokens(_ t: Sandbox) throws -> [String] {
        let queue = try DatabaseQueue(path: t.storePath)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT token FROM web_session ORDER BY token") }
    }

    @Test func revokingATokenWithOneWebSessionSaysSo() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        _ = try add(t, ["phone"], scopes: "start, stop, cancel, read, events, owntracks")
        _ = try add(t, ["watch", "--scope", "read"], scopes: "read")
        let queue = try DatabaseQueue(path: t.storePath)
        try queue.write { db in
            try Self.insertSessions(db, [
                ("3f2a9c1b", "phone", 1_795_172_400, 1_795_172_400, 1_795_172_400 + 86_400),
                ("0a1b2c3d", "watch", 1_795_172_400, 1_795_172_400, 1_795_172_400 + 86_400),
            ])
        }
        try queue.close()
        var r = try t.run("tokens", "revoke", "phone")
        #expect(r.status == 0)
        #expect(r.lines == ["revoked token \"phone\"; its next request is refused, and its web session ended"])
        r = try t.run("tokens", "revoke", "watch", "--json")
        #expect(r.status == 0)
        #expect(try r.json() == .object(["name": .string("watch"), "revoked": .string("2026-11-20T12:00:00+01:00"),
                                         "sessions_ended": .number(1)]))
        #expect(try Self.sessionTokens(t) == [])
    }

    @Test func addAndRevokeInJSON() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        var r = try t.run("tokens", "add", "watch", "--scope", "read", "--json")
        #expect(r.status == 0)
        let json = try r.json()
        guard case .string(let secret) = json["token"] else {
            Issue.record("no token: \(r)")
            return
        }
        #expect(secret.hasPrefix("trk_") && secret.utf8.count == 47)
        #expect(json == .object(["token": .string(secret), "name": .string("watch"), "scopes": .array([.string("read")]),
                                 "created": .string("2026-11-20T12:00:00+01:00")]))
        r = try t.run("tokens", "revoke", "watch", "--json")
        #expect(r.status == 0)
        #expect(try r.json() == .object(["name": .string("watch"), "revoked": .string("2026-11-20T12:00:00+01:00"),
                                         "sessions_ended": .number(0)]))
    }

    /// After `add`, the secret is in no command's stdout or stderr, and in
    /// no file under the sandbox (the store, its WAL, the settings).
    @Test func theSecretIsShownOnceAndStoredNowhere() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        let secret = try add(t, ["phone"], scopes: "start, stop, cancel, read, events, owntracks")
        let runs: [[String]] = [
            ["start", "-p", "Docs", "--at", "11:00"],
            ["tokens", "list"], ["tokens", "list", "--json"],
            ["tokens", "add", "phone"], ["tokens", "add", "bad name"], ["tokens", "add", "x", "--scope", "strat"],
            ["status"], ["status", "--json"], ["history"], ["history", "--json"],
            ["export", "--format", "json"], ["export", "--format", "csv"],
            ["tokens", "revoke", "phone"], ["tokens", "revoke", "phone"], ["tokens", "list"], ["tokens", "list", "--json"],
        ]
        for arguments in runs {
            let r = try t.run(arguments)
            #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret), "\(r)")
            #expect(!r.stdout.isEmpty || !r.stderr.isEmpty, "\(r)")
        }
        let body = Data(secret.dropFirst(4).utf8)
        var files = 0
        if let walk = FileManager.default.enumerator(atPath: t.root.path) {
            for case let relative as String in walk {
                let path = t.root.appendingPathComponent(relative).path
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                // The sandbox keeps each run's output in io/; `add`'s own
                // stdout is the one place the secret belongs.
                if relative.hasPrefix("io/") { continue }
                files += 1
                #expect(try t.bytes(path).range(of: body) == nil, "\(relative) holds the token")
            }
        }
        #expect(t.listing(t.path("store")).contains("trackee.sqlite3"))
        #expect(files >= 2)
    }

    @Test func anUnknownScopeIsAUsageErrorNamingIt() throws {
        let t = try Sandbox()
        var r = try t.run("tokens", "add", "phone", "--scope", "start,strat")
        #expect(r.status == 64)
        #expect(r.stdout == "")
        #expect(r.stderr == "trackee: --scope \"strat\" is no scope; did you mean \"start\"?\nSee 'trackee tokens add --help'.\n")
        r = try t.run("tokens", "add", "phone", "--scope", "write")
        #expect(r.status == 64)
        #expect(r.stderr == "trackee: --scope \"write\" is no scope; scopes are start, stop, cancel, read, events, owntracks\n"
            + "See 'trackee tokens add --help'.\n")
        r = try t.run("tokens", "add", "phone", "--scope", "read,,stop")
        #expect(r.status == 64)
        #expect(r.stderr == "trackee: --scope has an empty scope; scopes are start, stop, cancel, read, events, owntracks\n"
            + "See 'trackee tokens add --help'.\n")
        r = try t.run("tokens", "add", "my phone")
        #expect(r.status == 64)
        #expect(r.stderr == "trackee: token name \"my phone\" is not 1 to 64 letters, digits, dots, underscores or hyphens; "
            + "choose a name such as phone or home-assistant\nSee 'trackee tokens add --help'.\n")
        #expect(t.listing(t.path("store")) == [])
    }

    @Test func aTakenNameIsRefused() throws {
        let t = try Sandbox()
        _ = try add(t, ["phone"], scopes: "start, stop, cancel, read, events, owntracks")
        let r = try t.run("tokens", "add", "phone", "--scope", "read")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "trackee: a token named \"phone\" exists already (revoked tokens keep their names); choose another name\n")
    }

    @Test func revokingAMissingOrRevokedTokenExitsOne() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        var r = try t.run("tokens", "revoke", "phone")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "trackee: no token named \"phone\"; `trackee tokens list` lists them\n")
        _ = try add(t, ["phone"], scopes: "start, stop, cancel, read, events, owntracks")
        #expect(try t.run("tokens", "revoke", "phone").status == 0)
        r = try t.run("tokens", "revoke", "phone", now: "2026-11-20 12:30")
        #expect(r.status == 1)
        #expect(r.stderr == "trackee: token \"phone\" was revoked already, at 2026-11-20T12:00:00+01:00; nothing changed\n")
    }
}
