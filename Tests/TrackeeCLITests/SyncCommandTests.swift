import Foundation
import Testing
import TrackeeTestSupport

/// The settings' sync: section and the outbox it feeds, through the built
/// binary: what is queued by which command, `sync status`, `sync
/// backfill`, and settings that are refused before anything is queued.
@Suite struct SyncCommandTests {
    static let settings = """
        sync:
          work:
            service: clockify
            workspace: My Company
            token_env: CLOCKIFY_API_KEY
            since: 2026-11-01
          play:
            service: toggl
            workspace: "123456"
            token_file: ~/.config/trackee/toggl.token
            since: 2026-11-20
            projects: {Docs: Documentation}
            create_missing: true
            url: http://127.0.0.1:9/api/v9/
        """

    static func sandbox(settings: String = settings, tokenMode: Int = 0o600) throws -> Sandbox {
        let t = try Sandbox(now: "2026-11-20 12:00")
        try FileManager.default.createDirectory(atPath: t.path("config/trackee"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: t.path("home/.config/trackee"), withIntermediateDirectories: true)
        try t.write("toggl-secret-token\n", to: "home/.config/trackee/toggl.token")
        try FileManager.default.setAttributes([.posixPermissions: tokenMode], ofItemAtPath: t.path("home/.config/trackee/toggl.token"))
        // Last, so the line numbers the refusals below name stay those of `settings`.
        try t.write(settings + "\ncreate_projects: always\n", to: "config/trackee/config.yaml")
        return t
    }

    func status(_ t: Sandbox) throws -> [String] {
        let r = try t.run("sync", "status")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        return r.lines
    }

    @Test func finishedEntriesAreQueuedForEachTargetWhoseSinceCoversThem() throws {
        let t = try Self.sandbox()
        #expect(try t.run("add", "-p", "Docs", "--from", "2026-10-30 09:00", "--to", "2026-10-30 10:00", "old").status == 0)
        #expect(try t.run("add", "-p", "Docs", "--from", "2026-11-19 09:00", "--to", "2026-11-19 10:00", "thu").status == 0)
        #expect(try t.run("start", "-p", "Docs", "fri", now: "2026-11-20 09:00").status == 0)
        // The running timer is not queued until it stops.
        #expect(try status(t) == [
            "play (toggl): 0 queued, 0 failed, 0 in conflict, 0 held there; never pushed",
            "work (clockify): 1 queued, 0 failed, 0 in conflict, 0 held there; never pushed",
        ])
        #expect(try t.run("stop", now: "2026-11-20 11:00").status == 0)
        #expect(try status(t) == [
            "play (toggl): 1 queued, 0 failed, 0 in conflict, 0 held there; never pushed",
            "work (clockify): 2 queued, 0 failed, 0 in conflict, 0 held there; never pushed",
        ])
        let json = try t.run("sync", "status", "--json")
        #expect(try json.json() == parsedJSON("""
            [{"conflicts": 0, "failed": 0, "pushed": 0, "queued": 1, "service": "toggl", "target": "play", "set_aside": [],
              "quota": {"requests_per_hour": 30, "left": 30, "user_left": 30}},
             {"conflicts": 0, "failed": 0, "pushed": 0, "queued": 2, "service": "clockify", "target": "work", "set_aside": [],
              "quota": {"requests_per_hour": 30, "left": 30}}]
            """))
    }

    @Test func backfillQueuesWhatWasThereBeforeTheTargetOnce() throws {
        let t = try Self.sandbox(settings: "")
        #expect(try t.run("add", "-p", "Docs", "--from", "2026-10-30 09:00", "--to", "2026-10-30 10:00", "old").status == 0)
        #expect(try t.run("add", "-p", "Docs", "--from", "2026-11-19 09:00", "--to", "2026-11-19 10:00", "thu").status == 0)
        #expect(try t.run("add", "-p", "Docs", "--from", "2026-11-18 09:00", "--to", "2026-11-18 10:00", "wed").status == 0)
        try t.write(Self.settings, to: "config/trackee/config.yaml")
        let first = try t.run("sync", "backfill", "work", "--from", "2026-10-01", "--to", "2026-12-01")
        #expect(first.status == 0, "\(first)")
        #expect(first.lines == ["queued 2 entries for work (from 2026-11-01T00:00:00+01:00, its since:)"])
        let again = try t.run("sync", "backfill", "work", "--from", "2026-10-01", "--to", "2026-12-01", "--json")
        #expect(try again.json() == parsedJSON(#"{"queued": 0}"#))
        let unknown = try t.run("sync", "backfill", "home", "--from", "2026-10-01", "--to", "2026-12-01")
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "trackee: no sync target named \"home\"; the settings name work, play\n")
        #expect(try status(t) == [
            "play (toggl): 0 queued, 0 failed, 0 in conflict, 0 held there; never pushed",
            "work (clockify): 2 queued, 0 failed, 0 in conflict, 0 held there; never pushed",
        ])
    }

    @Test func aTargetRemovedFromTheSettingsIsDroppedWithItsQueueBySyncStatus() throws {
        let t = try Self.sandbox()
        #expect(try t.run("add", "-p", "Docs", "--from", "2026-11-19 09:00", "--to", "2026-11-19 10:00", "thu").status == 0)
        try t.write("week_start: monday\n", to: "config/trackee/config.yaml")
        #expect(try status(t) == ["no sync targets; name them under sync: in the settings file (see trackee(1), CONFIGURATION)"])
    }

    /// No target is a matter of configuration (78), not of the command
    /// line; the message shows the smallest section that works, and it
    /// does work when pasted into the settings file.
    @Test func syncWithNoTargetsIsAConfigurationErrorWithAnExample() throws {
        let t = try Sandbox()
        let example = "sync: {work: {service: clockify, workspace: My Company, token_file: ~/.config/trackee/clockify.token, "
            + "since: 2026-11-01}}"
        for arguments in [["sync"], ["sync", "check"], ["sync", "push", "work"]] {
            let r = try t.run(arguments)
            #expect(r.status == 78, "\(r)")
            #expect(r.stdout == "")
            #expect(r.stderr == failure("no sync targets in \(t.path("config/trackee/config.yaml")); add one, such as "
                + example + " (see trackee(1), CONFIGURATION)"))
        }
        try FileManager.default.createDirectory(atPath: t.path("home/.config/trackee"), withIntermediateDirectories: true)
        try t.write("token\n", to: "home/.config/trackee/clockify.token")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: t.path("home/.config/trackee/clockify.token"))
        try t.write(example + "\n", to: "config/trackee/config.yaml")
        #expect(try status(t) == ["work (clockify): 0 queued, 0 failed, 0 in conflict, 0 held there; never pushed"])
    }

    /// A token file that others can read, or that is missing, is refused
    /// before anything is queued, with how to fix it.
    @Test func aTokenFileOthersCanReadOrThatIsMissingIsRefused() throws {
        let open = try Self.sandbox(tokenMode: 0o644)
        let r = try open.run("add", "-p", "Docs", "--from", "2026-11-19 09:00", "--to", "2026-11-19 10:00")
        let token = open.path("home/.config/trackee/toggl.token")
        #expect(r.status == 78)
        #expect(r.stderr == "trackee: \(open.path("config/trackee/config.yaml")):10: \(token): the token file can be read by other users; run chmod 600 \(token)\n")
        #expect(!FileManager.default.fileExists(atPath: open.storePath))

        let missing = try Self.sandbox()
        try FileManager.default.removeItem(atPath: missing.path("home/.config/trackee/toggl.token"))
        let m = try missing.run("sync", "status")
        #expect(m.status == 78)
        #expect(m.stderr == "trackee: \(missing.path("config/trackee/config.yaml")):10: \(missing.path("home/.config/trackee/toggl.token")): "
                + "the token file does not exist; put the service's API token in it and run chmod 600 on it\n")
        // The token itself is never shown.
        #expect(!(r.stdout + r.stderr + m.stdout + m.stderr).contains("toggl-secret-token"))
    }

    /// One positioned sentence and exit 78 for each mistake; the store is
    /// not even created.
    @Test(arguments: [
        ("sync:\n  work:\n    service: harvest\n", "config.yaml:3: sync.work.service is \"harvest\"; expected one of clockify, toggl"),
        ("sync:\n  work:\n    service: clockify\n    token_env: K\n    since: 2026-11-01\n",
         "config.yaml:3: sync.work has no workspace (its name or id)"),
        ("sync:\n  work:\n    service: clockify\n    workspace: W\n    token_env: K\n    since: 1 November\n",
         "config.yaml:6: sync.work.since is \"1 November\"; expected a date such as 2026-11-01"),
        ("sync:\n  work:\n    service: clockify\n    workspace: W\n    token_env: K\n    token_file: f\n    since: 2026-11-01\n",
         "config.yaml:6: sync.work.token_file: give token_file or token_env, not both"),
        ("sync:\n  work:\n    service: clockify\n    workspace: W\n    token: abc\n",
         "config.yaml:5: unknown key sync.work.token; known keys are service, workspace, token_file, token_env, since, projects, create_missing, url, "
         + "requests_per_hour"),
        ("sync:\n  work:\n    service: toggl\n    workspace: W\n    token_env: K\n    since: 2026-11-01\n    requests_per_hour: 0\n",
         "config.yaml:7: sync.work.requests_per_hour is \"0\"; expected a whole number of requests an hour, 1 or more "
         + "(Toggl Track Free: 30, Starter: 240, Premium: 600)"),
        ("sync:\n  work:\n    service: toggl\n    workspace: W\n    token_env: K\n    since: 2026-11-01\n    url: ftp://x\n",
         "config.yaml:7: sync.work.url is \"ftp://x\"; expected an http or https URL"),
    ])
    func badSyncSettingsAreRefusedWithTheirLine(settings: String, message: String) throws {
        let t = try Self.sandbox(settings: settings)
        let r = try t.run("add", "-p", "Docs", "--from", "2026-11-19 09:00", "--to", "2026-11-19 10:00")
        #expect(r.status == 78)
        #expect(r.stderr == "trackee: \(t.path("config/trackee"))/\(message)\n")
        #expect(!FileManager.default.fileExists(atPath: t.storePath))
    }
}
