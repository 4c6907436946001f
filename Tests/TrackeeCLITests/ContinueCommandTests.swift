import Testing
import TrackeeTestSupport

/// `trackee continue [ENTRY]` and a bare `trackee start`, through the
/// built binary.
@Suite struct ContinueCommandTests {
    /// Friday 2026-11-20 in Prague: #1 Docs · user guide · #writing
    /// 09:00–10:00, #2 Mail 10:00–11:00; nothing runs.
    private func morning() throws -> Sandbox {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        for args in [["start", "-p", "Docs", "-t", "writing", "user guide", "--at", "9:00"], ["stop", "--at", "10:00"],
                     ["start", "-p", "Mail", "--at", "10:00"], ["stop", "--at", "11:00"]] {
            let r = try t.run(args)
            #expect(r.status == 0, "\(r)")
        }
        return t
    }

    @Test func continueStartsTheLastEntryAgainAndThenChangesNothing() throws {
        let t = try morning()
        let first = try t.run("continue")
        #expect(first.status == 0)
        #expect(first.lines == ["started Mail at 12:00"])
        let again = try t.run("continue", now: "2026-11-20 12:10")
        #expect(again.status == 0)
        #expect(again.lines == ["unchanged: Mail running since 12:00 (0:10)"])
        let log = try t.run("log", "--json", now: "2026-11-20 12:10").json()
        #expect(log["days"][0]["entries"].elements.count == 3)
    }

    @Test func continueAnEntryByIDSwitchesToItOrKeepsItRunning() throws {
        let t = try morning()
        #expect(try t.run("continue").status == 0)
        let switched = try t.run("continue", "1", "--at", "12:30", now: "2026-11-20 12:45")
        #expect(switched.status == 0)
        #expect(switched.lines == ["switched: saved Mail (0:30), started Docs · user guide · #writing at 12:30"])
        let same = try t.run("continue", "#1", "--json", now: "2026-11-20 12:50")
        #expect(same.status == 0)
        let json = try same.json()
        #expect(json["outcome"] == "unchanged")
        #expect(json["replayed"] == false)
        #expect(json["entry"]["id"] == 4)
        #expect(json["entry"]["start"] == "2026-11-20T12:30:00+01:00")
        #expect(json["entry"]["tags"] == .array(["writing"]))
        #expect(json["created"] == .array([]))
        #expect(json["previous"] == .absent)
    }

    @Test func aContinueUnderAKeyUsedBeforeChangesNothing() throws {
        let t = try morning()
        #expect(try t.run("continue", "1", "--key", "resume-1").lines == ["started Docs · user guide · #writing at 12:00"])
        #expect(try t.run("stop", now: "2026-11-20 12:30").status == 0)
        let again = try t.run("continue", "1", "--key", "resume-1", now: "2026-11-20 12:40")
        #expect(again.status == 0)
        #expect(again.lines == [#"started Docs · user guide · #writing at 12:00 — key "resume-1" was applied before; nothing changed"#])
        #expect(try t.run("status", "--json", now: "2026-11-20 12:40").json()["running"] == .absent)
    }

    @Test func continueRefusesWhenThereIsNothingOrNoSuchEntry() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        let nothing = try t.run("continue")
        #expect(nothing.status == 1)
        #expect(nothing.stdout == "")
        #expect(nothing.stderr == failure("nothing to continue: no entry yet; `trackee start` begins one"))

        let m = try morning()
        let unknown = try m.run("continue", "99")
        #expect(unknown.status == 1)
        #expect(unknown.stderr == failure("no entry with id 99; `trackee log` lists entry ids"))
        let word = try m.run("continue", "last")
        #expect(word.status == 64)
        #expect(word.stderr == failure(#""last" is not an entry id; use a number from `trackee log` or `running`"#))
        #expect(try m.run("status", "--json").json()["running"] == .absent)
    }

    @Test func aBareStartKeepsTheRunningTimerAndSaysSo() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        #expect(try t.run("start", "-p", "Docs", "--at", "11:00").status == 0)
        let bare = try t.run("start")
        #expect(bare.status == 0)
        #expect(bare.lines == ["unchanged: Docs running since 11:00 (1:00)"])
        let json = try t.run("start", "--json").json()
        #expect(json["outcome"] == "unchanged")
        #expect(json["entry"]["project"] == "Docs")
        let log = try t.run("log", "--json").json()
        #expect(log["days"][0]["entries"].elements.count == 1)
        #expect(log["days"][0]["entries"][0]["running"] == true)
    }

    @Test func aBareStartWithNothingRunningStartsATimerWithoutAProject() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        let r = try t.run("start")
        #expect(r.status == 0)
        #expect(r.lines == ["started (no project) at 12:00"])
        #expect(try t.run("status", "--json").json()["running"]["project"] == .absent)
    }
}
