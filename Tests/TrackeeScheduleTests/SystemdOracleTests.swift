import Foundation
import Testing
import TrackeeCore
import TrackeeSchedule

// Compares CalendarSpec with the real thing: `systemd-analyze calendar
// --iterations=N --base-time=@SECONDS EXPR`, which prints systemd's normalized
// form and its next N elapses.
//
// The zone. Each case names an evaluation zone Z. systemd-analyze runs with
// TZ=Z and our `next(after:zone:)` gets the same Z, so an expression without
// a zone suffix is evaluated in Z by both; for one with a suffix Z must not
// matter, and several such cases use a Z other than UTC to show that it does
// not.
//
// Reading the elapses. systemd-analyze prints each elapse in the local zone
// Z (`Sun 2026-10-25 02:30:00 CET`), and when Z is not UTC it adds a line
// `(in UTC): Sun 2026-10-25 01:30:00 UTC`. We read that UTC line whenever it
// is there, and otherwise the elapse line itself, which must then say UTC.
// That gives unambiguous instants, even in a repeated hour, without parsing
// zone abbreviations.
//
// The cases were checked against Debian 12's systemd 252.38, whose search
// includes a later upstream fix for daylight-saving changes (systemd#36897);
// another systemd may differ in those corners.

/// systemd-analyze, when it is installed; CI machines have it.
private let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

private let iterations = 6

struct OracleCase: Sendable, CustomTestStringConvertible {
    var expression: String
    /// The evaluation zone: TZ for systemd-analyze and `zone:` for us.
    var zone: String
    /// UTC wall times to search from.
    var bases: [String]

    init(_ expression: String, _ zone: String = "UTC", _ bases: [String] = OracleCase.ordinary) {
        self.expression = expression
        self.zone = zone
        self.bases = bases
    }

    var testDescription: String { "\"\(expression)\" in \(zone)" }

    static let ordinary = ["2026-01-15 10:20:30", "2026-02-27 23:59:59", "2028-02-28 12:00:00", "2026-12-31 23:00:00"]
    /// Prague: 02:00 CET → 03:00 CEST on 2026-03-29 (01:00Z), 03:00 CEST → 02:00 CET on 2026-10-25 (01:00Z).
    static let pragueChanges = [
        "2026-03-28 23:30:00", "2026-03-29 00:59:30", "2026-10-24 22:30:00", "2026-10-25 00:20:00",
        "2026-10-25 00:59:59", "2026-10-25 01:00:00", "2026-10-25 01:15:00",
    ]
    /// New York: 02:00 EST → 03:00 EDT on 2026-03-08 (07:00Z), 02:00 EDT → 01:00 EST on 2026-11-01 (06:00Z).
    static let newYorkChanges = [
        "2026-03-08 05:30:00", "2026-03-08 06:59:59", "2026-11-01 04:30:00", "2026-11-01 05:30:00",
        "2026-11-01 06:10:00",
    ]
    /// Lord Howe moves by half an hour: 02:00 → 01:30 on 2026-04-05 (15:00Z the day before),
    /// 02:00 → 02:30 on 2026-10-04 (15:30Z the day before).
    static let lordHoweChanges = ["2026-04-04 13:00:00", "2026-04-04 14:50:00", "2026-04-04 15:10:00", "2026-10-03 14:00:00"]
    /// Santiago skips midnight: 00:00 → 01:00 on 2026-09-06, and repeats 23:00 on 2026-04-04.
    static let santiagoChanges = ["2026-04-04 12:00:00", "2026-04-05 02:30:00", "2026-09-05 12:00:00"]
}

private let cases: [OracleCase] = [
    // Weekday lists and ranges.
    OracleCase("Mon,Wed *-*-* 09:00", "Europe/Prague"),
    OracleCase("Mon..Fri 09:00", "America/New_York"),
    OracleCase("Sat,Sun 10:30"),
    OracleCase("Monday..Wednesday,Friday 18:00:30", "Asia/Kolkata"),
    OracleCase("mon-wed,SUN 07:00"),
    OracleCase("Sun *-*-* 23:59:59", "Europe/Prague"),
    OracleCase("Tue,Thu *-*-1..7 10:00"),
    OracleCase("Mon,Tue,Wed,Fri,Sat 12:00"),
    OracleCase("Fri *-*-13"),
    // Lists, ranges and repetition in every field.
    OracleCase("*:*:0/45"),
    OracleCase("*:*:10,20,30..40/5"),
    OracleCase("*:0/15", "Asia/Kolkata"),
    OracleCase("8..18/2:00", "Europe/Prague"),
    OracleCase("8..18/2:15,45", "Asia/Kolkata"),
    OracleCase("*-*-* 00/6:00:00"),
    OracleCase("*-*-1/10 12:00"),
    OracleCase("*-1..12/5-1"),
    OracleCase("2026-01/3-01"),
    OracleCase("2026..2028-01-01"),
    OracleCase("2026/2-06-15 08:00"),
    OracleCase("*-*-* 1,2,3,2,1:00"),
    OracleCase("0..5/100:00"),
    OracleCase("*-*-* *:*:30", "Asia/Kolkata"),
    OracleCase("*:05..05"),
    // Counting from the end of the month.
    OracleCase("*-02~03"),
    OracleCase("Mon *-05~07/1", "Europe/Prague"),
    OracleCase("*-*~01", "America/New_York"),
    OracleCase("*-*~1..3"),
    OracleCase("*-*~01..07/2 12:00", "Asia/Kolkata"),
    OracleCase("Fri *-*~07/1 17:00", "Europe/Prague"),
    OracleCase("*-*~28"),
    OracleCase("2~1..3 6:00"),
    // Leap days and month ends.
    OracleCase("*-02-29"),
    OracleCase("*-02-29 12:00 Europe/Prague", "America/New_York"),
    OracleCase("Mon *-02-29"),
    OracleCase("*-*-31"),
    OracleCase("*-*-29,30,31 23:00", "America/New_York"),
    // Shorthands.
    OracleCase("minutely"),
    OracleCase("hourly"),
    OracleCase("daily", "Europe/Prague"),
    OracleCase("weekly", "America/New_York"),
    OracleCase("monthly", "Asia/Kolkata"),
    OracleCase("yearly"),
    OracleCase("annually Europe/Prague"),
    OracleCase("quarterly"),
    OracleCase("semiannually", "Europe/Prague"),
    OracleCase("bi-annually UTC"),
    OracleCase("Hourly"),
    // Zone suffixes; the evaluation zone must not matter.
    OracleCase("*-*-* 12:00 UTC", "Europe/Prague"),
    OracleCase("*-*-* 12:00 utc", "America/New_York"),
    OracleCase("Mon 9:00 Asia/Kolkata", "America/New_York"),
    OracleCase("*-*-* 12:00:00 Etc/UTC", "Asia/Kolkata"),
    OracleCase("*-01-01 00:00:00 Asia/Kolkata"),
    OracleCase("Sat..Sun *-12-24,25,31 20:00 America/New_York", "Europe/Prague"),
    OracleCase("daily Australia/Lord_Howe"),
    // Prague's changes, with and without the suffix.
    OracleCase("*-*-* 02:30 Europe/Prague", "UTC", OracleCase.pragueChanges),
    OracleCase("*-*-* 02:30", "Europe/Prague", OracleCase.pragueChanges),
    OracleCase("*-*-* 02,03:30", "Europe/Prague", OracleCase.pragueChanges),
    OracleCase("hourly Europe/Prague", "America/New_York", OracleCase.pragueChanges),
    OracleCase("hourly", "Europe/Prague", OracleCase.pragueChanges),
    OracleCase("minutely", "Europe/Prague", OracleCase.pragueChanges),
    OracleCase("*:0/20", "Europe/Prague", OracleCase.pragueChanges),
    OracleCase("*-*-* 02:00,20,40 Europe/Prague", "UTC", OracleCase.pragueChanges),
    OracleCase("*-*-* 01..03:00..59/25:07", "Europe/Prague", OracleCase.pragueChanges),
    OracleCase("*-*-* *:59:59", "Europe/Prague", OracleCase.pragueChanges),
    OracleCase("Sun *-*~07/1 02:30 Europe/Prague", "UTC", OracleCase.pragueChanges),
    // New York's changes.
    OracleCase("*-*-* 01:30 America/New_York", "UTC", OracleCase.newYorkChanges),
    OracleCase("*-*-* 01,02,03:30", "America/New_York", OracleCase.newYorkChanges),
    OracleCase("hourly", "America/New_York", OracleCase.newYorkChanges),
    OracleCase("*:0/15", "America/New_York", OracleCase.newYorkChanges),
    OracleCase("*-*-* 02:00:00", "America/New_York", OracleCase.newYorkChanges),
    // Half-hour changes and a skipped midnight.
    OracleCase("*-*-* 01:45 Australia/Lord_Howe", "UTC", OracleCase.lordHoweChanges),
    OracleCase("*-*-* 02:15", "Australia/Lord_Howe", OracleCase.lordHoweChanges),
    OracleCase("*:00,30 Australia/Lord_Howe", "UTC", OracleCase.lordHoweChanges),
    OracleCase("*:4/12", "Australia/Lord_Howe", OracleCase.lordHoweChanges + ["2026-10-03 15:22:00"]),
    OracleCase("*-1/8-* *:14", "Pacific/Chatham", ["2027-10-07 05:00:00", "2026-08-01 00:00:00", "2027-01-31 12:00:00"]),
    OracleCase("daily", "America/Santiago", OracleCase.santiagoChanges),
    OracleCase("*-*-* 00,23:30 America/Santiago", "UTC", OracleCase.santiagoChanges),
    // Dates that end, two-digit years and timestamps.
    OracleCase("2027-06-15 08:00:00", "Europe/Prague"),
    OracleCase("26-03-29 02:30 Europe/Prague"),
    OracleCase("2026-01-15,16 10:20:30..35"),
    OracleCase("@1790000000", "Europe/Prague"),
    OracleCase("Sun @1790000000"),
    OracleCase("*-02-30"),
    OracleCase("2100-02-29"),
    // Odd but valid spellings.
    OracleCase("Mon, 12:00"),
    OracleCase("Mon "),
    OracleCase("*-*~*"),
    OracleCase("*-*-*   12:00"),
    OracleCase("0/1:0/1:0/1,5"),
    OracleCase("5..10/99999999:00"),
    OracleCase("Mon..Sun 06:00"),
]

@Suite("CalendarSpec against systemd-analyze")
struct SystemdOracleTests {
    // Skipped, with this reason printed, where systemd is not installed.
    @Test(
        .enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed, so there is nothing to compare with"),
        arguments: cases)
    func matchesSystemd(_ oracle: OracleCase) throws {
        let spec = try CalendarSpec(oracle.expression)
        let zone = try Zone(identifier: oracle.zone)
        for base in oracle.bases.map(utc) {
            let systemd = try runSystemdAnalyze(oracle.expression, zone: oracle.zone, base: base)
            #expect(spec.normalized == systemd.normalized)
            let ours = spec.elapses(after: base, zone: zone, count: iterations)
            #expect(ours == systemd.elapses, "after \(base)")
        }
    }

    /// Every expression CalendarSpecErrorTests rejects, systemd rejects too,
    /// except those marked as a known difference.
    @Test(
        .enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed, so there is nothing to compare with"),
        arguments: malformedExpressions.filter(\.systemdRejects))
    func systemdRejectsTheMalformed(_ malformed: Malformed) throws {
        let run = try systemdAnalyzeCalendar(malformed.expression, zone: "UTC")
        #expect(run.status != 0)
    }

    @Test func coversEnoughExpressions() {
        #expect(Set(cases.map(\.expression)).count >= 45)
        #expect(cases.allSatisfy { $0.bases.count >= 3 })
    }
}

/// What systemd-analyze prints for one expression.
private struct SystemdAnswer {
    var normalized: String
    var elapses: [Instant]
}

/// `systemd-analyze calendar [options] -- EXPRESSION` with `TZ=zone`: its exit status and standard output.
private func systemdAnalyzeCalendar(_ expression: String, zone: String, options: [String] = []) throws
    -> (status: Int32, output: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: systemdAnalyze!)
    process.arguments = ["calendar"] + options + ["--", expression]
    process.environment = ["TZ": zone, "LC_ALL": "C", "SYSTEMD_COLORS": "0", "SYSTEMD_PAGER": ""]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

private func runSystemdAnalyze(_ expression: String, zone: String, base: Instant) throws -> SystemdAnswer {
    let run = try systemdAnalyzeCalendar(
        expression, zone: zone, options: ["--iterations=\(iterations)", "--base-time=@\(base.seconds)"])
    try #require(run.status == 0, "systemd-analyze failed on \"\(expression)\"")

    let lines = run.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    var answer = SystemdAnswer(normalized: "", elapses: [])
    for (i, line) in lines.enumerated() {
        if let normalized = value(of: line, after: "Normalized form:") {
            answer.normalized = normalized
            continue
        }
        guard var shown = value(of: line, after: "Next elapse:") ?? iterationValue(line), shown != "never" else {
            continue
        }
        if i + 1 < lines.count, let inUTC = value(of: lines[i + 1], after: "(in UTC):") { shown = inUTC }
        answer.elapses.append(try instant(shownInUTC: shown))
    }
    return answer
}

private func value(of line: String, after label: String) -> String? {
    line.hasPrefix(label) ? line.dropFirst(label.count).trimmingCharacters(in: .whitespaces) : nil
}

/// `Iter. #2: Mon 2026-03-30 00:30:00 UTC`.
private func iterationValue(_ line: String) -> String? {
    guard line.hasPrefix("Iter. #"), let colon = line.firstIndex(of: ":") else { return nil }
    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
}

/// `Mon 2026-03-30 00:30:00 UTC`.
private func instant(shownInUTC shown: String) throws -> Instant {
    let parts = shown.split(separator: " ")
    try #require(parts.count == 4 && parts[3] == "UTC", "not a UTC time: \(shown)")
    return utc("\(parts[1]) \(parts[2])")
}
