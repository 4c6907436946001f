import Foundation
import Testing
import TrackeeCore

@testable import TrackeeCalendar

// Reading a calendar again after a change (the daemon's re-arm) parses only
// the VEVENTs whose text changed. Each test edits a file, reads it again
// from the previous read, and holds the result to a first read of the new
// file: the same occurrences, and the unchanged events' components taken
// over rather than parsed again.
@Suite struct RereadTests {
    static let head = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//trackee tests//EN

        """
    static let standup = """
        BEGIN:VEVENT
        UID:standup@example.com
        DTSTART;TZID=Europe/Prague:20261102T093000
        DURATION:PT15M
        RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR
        SUMMARY:Standup

        """
    static let standupEnd = "END:VEVENT\n"
    static let workshop = """
        BEGIN:VEVENT
        UID:workshop@example.com
        DTSTART;TZID=Europe/Prague:20261126T130000
        DTEND;TZID=Europe/Prague:20261126T170000
        SUMMARY:Client workshop
        END:VEVENT

        """
    static let moved = """
        BEGIN:VEVENT
        UID:standup@example.com
        RECURRENCE-ID;TZID=Europe/Prague:20261104T093000
        DTSTART;TZID=Europe/Prague:20261104T110000
        DURATION:PT15M
        SUMMARY:Standup (late)
        END:VEVENT

        """
    static let tail = "END:VCALENDAR\n"
    static let original = head + standup + standupEnd + workshop + moved + tail

    /// A scratch file holding `text`, removed at the end of `body`.
    func withFile(_ text: String, _ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "trackee-reread-\(UUID().uuidString).ics"
        try write(text, to: path)
        defer { unlink(path) }
        try body(path)
    }

    func write(_ text: String, to path: String) throws {
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    func load(_ path: String, rereading previous: EventCalendar? = nil) throws -> EventCalendar {
        try EventCalendar.load(name: "work", path: path, zone: prague, remember: true, rereading: previous)
    }

    /// Every occurrence of November and December 2026, one line each.
    func lines(_ c: EventCalendar) -> [String] {
        c.occurrences("2026-11-01T00:00:00+01:00", "2027-01-01T00:00:00+01:00").map {
            "\($0.uid) \($0.recurrenceID.map { iso($0.instant(in: prague), .utc) } ?? "-") \(iso($0.start))/\(iso($0.end)) \($0.status.rawValue) \($0.summary)"
        }
    }

    /// The UIDs whose components the second read took over from the first.
    func reused(_ before: EventCalendar, _ after: EventCalendar, _ path: String) -> [String] {
        let old = Set((before.memos[path]?.events.values).map { $0.map(ObjectIdentifier.init) } ?? [])
        return (after.memos[path]?.events.values).map(Array.init)?.filter { old.contains(ObjectIdentifier($0)) }.map(\.uid).sorted() ?? []
    }

    /// Reads `original`, then `edited` both ways; returns the reread.
    func reread(_ edited: String, from original: String = Self.original) throws -> (first: EventCalendar, again: EventCalendar, path: String) {
        var result: (EventCalendar, EventCalendar, String)?
        try withFile(original) { path in
            let first = try load(path)
            try write(edited, to: path)
            let again = try load(path, rereading: first)
            let fresh = try EventCalendar.load(name: "work", path: path, zone: prague)
            #expect(lines(again) == lines(fresh))
            result = (first, again, path)
        }
        return result!
    }

    @Test func aChangedSummaryParsesOnlyThatEvent() throws {
        let edited = Self.original.replacingOccurrences(of: "SUMMARY:Client workshop", with: "SUMMARY:Client workshop (room 4)")
        let (first, again, path) = try reread(edited)
        #expect(reused(first, again, path) == ["standup@example.com", "standup@example.com"])
        #expect(lines(again).filter { $0.hasPrefix("workshop") } == [
            "workshop@example.com - 2026-11-26T13:00:00+01:00/2026-11-26T17:00:00+01:00 confirmed Client workshop (room 4)",
        ])
    }

    @Test func anAddedExdateRemovesThatInstance() throws {
        let edited = Self.head + Self.standup + "EXDATE;TZID=Europe/Prague:20261103T093000\n" + Self.standupEnd
            + Self.workshop + Self.moved + Self.tail
        let (first, again, path) = try reread(edited)
        #expect(reused(first, again, path) == ["standup@example.com", "workshop@example.com"])
        let standups = lines(again).filter { $0.hasPrefix("standup") }
        #expect(standups.count == 43)
        #expect(!standups.contains { $0.contains("2026-11-03T09:30") })
        #expect(standups[0...2] == [
            "standup@example.com 2026-11-02T08:30:00Z 2026-11-02T09:30:00+01:00/2026-11-02T09:45:00+01:00 confirmed Standup",
            "standup@example.com 2026-11-04T08:30:00Z 2026-11-04T11:00:00+01:00/2026-11-04T11:15:00+01:00 confirmed Standup (late)",
            "standup@example.com 2026-11-05T08:30:00Z 2026-11-05T09:30:00+01:00/2026-11-05T09:45:00+01:00 confirmed Standup",
        ])
    }

    @Test func deletedAddedAndReorderedEvents() throws {
        let extra = Self.workshop.replacingOccurrences(of: "workshop@", with: "review@")
            .replacingOccurrences(of: "20261126", with: "20261201").replacingOccurrences(of: "Client workshop", with: "Review")
        // The override removed, a new event first, the workshop before the series.
        let edited = Self.head + extra + Self.workshop + Self.standup + Self.standupEnd + Self.tail
        let (first, again, path) = try reread(edited)
        #expect(reused(first, again, path) == ["standup@example.com", "workshop@example.com"])
        #expect(lines(again).contains(
            "review@example.com - 2026-12-01T13:00:00+01:00/2026-12-01T17:00:00+01:00 confirmed Review"))
        #expect(lines(again).contains(
            "standup@example.com 2026-11-04T08:30:00Z 2026-11-04T09:30:00+01:00/2026-11-04T09:45:00+01:00 confirmed Standup"))
        #expect(again.memos[path]!.events.count == 3)
    }

    @Test func aChangeOutsideTheEventsReadsTheWholeFile() throws {
        let edited = Self.original.replacingOccurrences(of: "VERSION:2.0\n", with: "VERSION:2.0\nX-WR-TIMEZONE:America/New_York\n")
        let (first, again, path) = try reread(edited)
        #expect(reused(first, again, path) == [])
        #expect(lines(again).count == 45)
    }

    @Test func anEventWithoutUIDReadsTheWholeFile() throws {
        let edited = Self.original.replacingOccurrences(of: "UID:workshop@example.com\n", with: "")
        let (first, again, path) = try reread(edited)
        #expect(reused(first, again, path) == [])
        // Named as a first read names it, after the file and its place there.
        let name = (path as NSString).lastPathComponent + "#1"
        #expect(lines(again).contains(
            "\(name) - 2026-11-26T13:00:00+01:00/2026-11-26T17:00:00+01:00 confirmed Client workshop"))
        // A file with an anonymous event keeps no memo: the next read is whole too.
        #expect(again.memos[path] == nil)
    }

    @Test func aSkippedEventInAChangedFileWarnsAsAFirstReadWarns() throws {
        try withFile(Self.original) { path in
            let first = try load(path)
            #expect(first.warnings == [])
            try write(Self.original.replacingOccurrences(of: "20261126T170000", with: "20261326T170000"), to: path)
            let again = try load(path, rereading: first)
            let fresh = try EventCalendar.load(name: "work", path: path, zone: prague)
            #expect(again.warnings.map(\.description) == [
                path + #":14: DTEND: "20261326T170000" is not a date (20261123) or date-time (20261123T093000); skipped the event"#,
            ])
            #expect(again.warnings == fresh.warnings)
            #expect(lines(again) == lines(fresh))
            #expect(!lines(again).contains { $0.hasSuffix("Client workshop") })
            // A file read past keeps no memo, so the next read gives its warnings again.
            #expect(again.memos[path] == nil)
        }
    }

    @Test func aFileWithWarningsReadAgainAfterAnEditGivesTheSameWarnings() throws {
        let odd = Self.original.replacingOccurrences(of: "VERSION:2.0\n", with: "VERSION:2.0\nX-LOST=fold\n")
        try withFile(odd) { path in
            let first = try load(path)
            #expect(first.warnings.map(\.description) == [path + #":3: X-LOST: expected ":" before the value; skipped the property"#])
            try write(odd.replacingOccurrences(of: "Standup\n", with: "Daily\n"), to: path)
            let again = try load(path, rereading: first)
            #expect(again.warnings == first.warnings)
            #expect(lines(again).filter { $0.hasSuffix(" Daily") }.count == 43)
        }
    }

    @Test func lowerCaseComponentNamesStillReadCorrectly() throws {
        // The cutter only knows `BEGIN:VEVENT` in capitals; such a file keeps no memo.
        let lower = Self.original.replacingOccurrences(of: "BEGIN:VEVENT\nUID:workshop", with: "begin:vevent\nUID:workshop")
        try withFile(lower) { path in
            let first = try load(path)
            #expect(first.memos[path] == nil)
            let edited = lower.replacingOccurrences(of: "Standup\n", with: "Daily\n")
            try write(edited, to: path)
            let again = try load(path, rereading: first)
            #expect(lines(again) == lines(try EventCalendar.load(name: "work", path: path, zone: prague)))
            #expect(lines(again).filter { $0.hasSuffix(" Daily") }.count == 43)
        }
    }

    @Test func aVdirRereadsOnlyTheChangedFile() throws {
        let folder = NSTemporaryDirectory() + "trackee-reread-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(Self.head + Self.standup + Self.standupEnd + Self.moved + Self.tail, to: folder + "/standup.ics")
        try write(Self.head + Self.workshop + Self.tail, to: folder + "/workshop.ics")
        let first = try load(folder)
        try write(Self.head + Self.workshop.replacingOccurrences(of: "T130000", with: "T140000") + Self.tail,
                  to: folder + "/workshop.ics")
        let again = try load(folder, rereading: first)
        #expect(reused(first, again, folder + "/standup.ics") == ["standup@example.com", "standup@example.com"])
        #expect(reused(first, again, folder + "/workshop.ics") == [])
        #expect(lines(again) == lines(try EventCalendar.load(name: "work", path: folder, zone: prague)))
        #expect(lines(again).contains(
            "workshop@example.com - 2026-11-26T14:00:00+01:00/2026-11-26T17:00:00+01:00 confirmed Client workshop"))
    }
}
