import Testing
import TrackeeTestSupport

/// `trackee edit`: moving the running start, changing finished entries,
/// and what it refuses.
@Suite struct EditCommandTests {
    @Test func moveStartMovesTheRunningStartExactlyTwoHoursEarlier() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("start", "-p", "Docs", "--at", "11:00").status == 0)

        let r = try t.run("edit", "running", "--move-start", "-2h", "--json")
        #expect(r.status == 0)
        let json = try r.json()
        #expect(json["action"] == "edited")
        #expect(json["entry"]["id"] == 1)
        #expect(json["entry"]["start"] == "2026-11-20T09:00:00+01:00")
        #expect(json["entry"]["duration_seconds"] == 10800)
        #expect(json["entry"]["running"] == true)

        let text = try t.run("edit", "running", "--move-start", "+15m")
        #expect(text.lines == ["edited #1 Docs since 09:15, running (2:45)"])
    }

    /// -2h is 7,200 seconds even when the wall clock repeats an hour.
    @Test func moveStartCountsElapsedSecondsAcrossTheDaylightSavingChange() throws {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-10-25T04:00+01:00")
        #expect(try t.run("start", "-p", "Night", "--at", "2026-10-25T03:30+01:00").status == 0)
        let json = try t.run("edit", "running", "--move-start", "-2h", "--json").json()
        // 02:30:00Z minus 7,200 s is 00:30:00Z, the first 02:30 of the night.
        #expect(json["entry"]["start"] == "2026-10-25T02:30:00+02:00")
        #expect(json["entry"]["duration_seconds"] == 9000)
    }

    @Test func fromAndToChangeAFinishedEntry() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("add", "-p", "A", "--from", "06:00", "--to", "07:00").status == 0)

        let r = try t.run("edit", "1", "--from", "05:00", "--to", "06:30")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines == ["edited #1 A 05:00–06:30 (1:30)"])

        let entry = try t.run("log", "--json").json()["days"][0]["entries"][0]
        #expect(entry["start"] == "2026-11-20T05:00:00+01:00")
        #expect(entry["end"] == "2026-11-20T06:30:00+01:00")
        #expect(entry["duration_seconds"] == 5400)
    }

    @Test func theRunningEntrysEndCannotBeEdited() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("start", "-p", "Docs", "--at", "11:00").status == 0)
        let before = t.storeFiles()

        for entry in ["running", "1"] {
            let r = try t.run("edit", entry, "--to", "11:30")
            #expect(r.status == 1)
            #expect(r.stdout == "")
            #expect(r.stderr == failure("entry 1 is the running timer; end it with `trackee stop --at TIME`"))
        }
        #expect(t.storeFiles() == before)
        let status = try t.run("status", "--json").json()
        #expect(status["running"]["start"] == "2026-11-20T11:00:00+01:00")
        #expect(status["running"]["end"] == .absent)
    }

    @Test func editWithNothingToChangeIsAUsageError() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("add", "-p", "A", "--from", "06:00", "--to", "07:00").status == 0)
        let r = try t.run("edit", "1")
        #expect(r.status == 64)
        #expect(r.stderr == failure("nothing to change; give --from, --to, --move-start, --project, --no-project, --client, --description, --tag or --clear-tags"))
    }
}
