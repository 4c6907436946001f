import Foundation
import Testing
import TrackeeCore

@testable import TrackeeCalendar

/// What `OccurrenceJSON.write` puts in a file, read back as text; the
/// file is removed.
private func written(_ occurrences: [CalendarOccurrence]) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-occurrences-\(UUID().uuidString).json").path
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    #expect(fd >= 0)
    defer { unlink(path) }
    OccurrenceJSON.write(occurrences, zone: prague, to: fd)
    close(fd)
    return try String(contentsOfFile: path, encoding: .utf8)
}

/// 2026-11-23T09:00:00+01:00.
private let nine: Int64 = 1_795_420_800

@Suite struct OccurrenceJSONTests {
    @Test func noOccurrencesIsAnEmptyArray() throws {
        #expect(try written([]) == "[]\n")
    }

    @Test func eachObjectWithItsKeysInOrder() throws {
        let standup = CalendarOccurrence(
            calendar: "work", uid: "standup@example.com", recurrenceID: .instant(Instant(seconds: nine)),
            start: Instant(seconds: nine), end: Instant(seconds: nine + 900), summary: "Tea \"at\" 5\n é",
            status: .tentative)
        let holiday = CalendarOccurrence(
            calendar: "home", uid: "h1", recurrenceID: .date(LocalDate(year: 2026, month: 11, day: 24)),
            start: Instant(seconds: 1_795_474_800), end: Instant(seconds: 1_795_561_200), allDay: true,
            status: .cancelled)
        let plain = CalendarOccurrence(calendar: "work", uid: "u2", start: Instant(seconds: nine), end: Instant(seconds: nine))
        #expect(try written([standup, holiday, plain]) == """
            [{"all_day":false,"calendar":"work","end":"2026-11-23T09:15:00+01:00",\
            "recurrence_id":"2026-11-23T09:00:00+01:00","start":"2026-11-23T09:00:00+01:00","status":"tentative",\
            "summary":"Tea \\"at\\" 5\\n é","uid":"standup@example.com"},\
            {"all_day":true,"calendar":"home","end":"2026-11-25T00:00:00+01:00",\
            "recurrence_id":"2026-11-24T00:00:00+01:00","start":"2026-11-24T00:00:00+01:00","status":"cancelled",\
            "summary":"","uid":"h1"},\
            {"all_day":false,"calendar":"work","end":"2026-11-23T09:00:00+01:00","recurrence_id":null,\
            "start":"2026-11-23T09:00:00+01:00","status":"confirmed","summary":"","uid":"u2"}]

            """)
    }

    /// 90,001 occurrences: three blocks of at most 40,000, each written in
    /// slices side by side, come out as one array in order, a comma
    /// between every two objects.
    @Test func blocksAndSlicesJoinIntoOneArray() throws {
        let texts = (0..<3).map { CalendarOccurrence.EventText(calendar: "c", uid: "u\($0)") }
        let occurrences = (0..<90_001).map { i in
            CalendarOccurrence(text: texts[i % 3], recurrenceID: nil, start: Instant(seconds: nine + Int64(i) * 60),
                               end: Instant(seconds: nine + Int64(i) * 60 + 60), allDay: false, status: .confirmed)
        }
        let objects = occurrences.map { o in
            "{\"all_day\":false,\"calendar\":\"c\",\"end\":\"\(prague.iso8601(o.end))\",\"recurrence_id\":null,"
                + "\"start\":\"\(prague.iso8601(o.start))\",\"status\":\"confirmed\",\"summary\":\"\",\"uid\":\"\(o.uid)\"}"
        }
        #expect(try written(occurrences) == "[" + objects.joined(separator: ",") + "]\n")
    }
}
