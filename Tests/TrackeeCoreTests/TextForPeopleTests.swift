import Testing
import TrackeeCore

// Times from GNU date, e.g. `TZ=Europe/Prague date -d 2026-11-19T10:03:00Z '+%a %F %T %z'`.

private let prague = try! Zone(identifier: "Europe/Prague")
/// Fri 2026-11-20 11:30 in Prague (10:30Z).
private let now = Instant(seconds: 1_795_170_600)

private func entry(project: String? = "Docs", client: String? = "Acme", description: String = "writing docs",
                   tags: [String] = ["a", "b"], start: Int64 = 1_795_082_580) -> Entry {
    Entry(id: 7, project: project, client: client, description: description, tags: tags,
          start: Instant(seconds: start), end: nil, source: "cli")
}

@Suite struct TextStyleTests {
    @Test func escapesWithColourAndPlainTextWithout() {
        let on = TextStyle(color: true)
        #expect(on.bold("x") == "\u{1B}[1mx\u{1B}[0m")
        #expect(on.dim("x") == "\u{1B}[2mx\u{1B}[0m")
        #expect(on.green("x") == "\u{1B}[32mx\u{1B}[0m")
        #expect(on.yellow("x") == "\u{1B}[33mx\u{1B}[0m")
        let off = TextStyle(color: false)
        #expect([off.bold("x"), off.dim("x"), off.green("x"), off.yellow("x")] == ["x", "x", "x", "x"])
    }

    @Test func colourOnlyOnATerminalWithoutJSONNoColorOrDumbTerm() {
        #expect(TextStyle(environment: [:], json: false, terminal: true).color)
        #expect(TextStyle(environment: ["TERM": "xterm", "NO_COLOR": ""], json: false, terminal: true).color)
        #expect(!TextStyle(environment: [:], json: false, terminal: false).color)
        #expect(!TextStyle(environment: [:], json: true, terminal: true).color)
        #expect(!TextStyle(environment: ["NO_COLOR": "1"], json: false, terminal: true).color)
        #expect(!TextStyle(environment: ["TERM": "dumb"], json: false, terminal: true).color)
    }

    @Test func theTerminalIsAskedOnlyWhenTheRestAllowColour() {
        var asked = 0
        func terminal() -> Bool {
            asked += 1
            return true
        }
        _ = TextStyle(environment: [:], json: true, terminal: terminal())
        _ = TextStyle(environment: ["NO_COLOR": "1"], json: false, terminal: terminal())
        _ = TextStyle(environment: ["TERM": "dumb"], json: false, terminal: terminal())
        #expect(asked == 0)
        _ = TextStyle(environment: [:], json: false, terminal: terminal())
        #expect(asked == 1)
    }
}

@Suite struct EntryLabelTests {
    @Test func projectClientDescriptionAndTags() {
        #expect(entry().label(TextStyle(color: false)) == "Docs (Acme) · writing docs · #a #b")
        #expect(entry().label(TextStyle(color: true)) == "\u{1B}[1mDocs\u{1B}[0m (Acme) · writing docs · #a #b")
    }

    @Test func whatIsMissingIsLeftOut() {
        #expect(entry(client: nil, description: "", tags: []).label(TextStyle(color: false)) == "Docs")
        #expect(entry(project: nil, client: nil, tags: ["x"]).label(TextStyle(color: false)) == "(no project) · writing docs · #x")
        #expect(entry(project: nil, description: "", tags: []).label(TextStyle(color: true)) == "\u{1B}[2m(no project)\u{1B}[0m")
    }
}

@Suite struct ZoneClockTests {
    @Test(arguments: [
        (1_795_131_000, "00:30"),  // 2026-11-19T23:30Z: already Friday in Prague
        (1_795_170_600, "11:30"),
        (1_795_082_580, "Thu 11:03"),  // a day before
        (1_794_650_580, "Sat 11:03"),  // six days before
        (1_794_564_180, "2026-11-13 11:03"),  // a week before
        (1_795_255_380, "2026-11-21 11:03"),  // the next day
    ] as [(Int64, String)])
    func clock(_ seconds: Int64, _ shown: String) {
        #expect(prague.clock(Instant(seconds: seconds), now: now) == shown)
    }
}

@Suite struct MoneyTests {
    @Test func formatted() {
        #expect(formatMoney(123_450) == "1234.50")
        #expect(formatMoney(8000) == "80.00")
        #expect(formatMoney(5) == "0.05")
        #expect(formatMoney(0) == "0.00")
        #expect(formatMoney(-5) == "-0.05")
        #expect(formatMoney(-123_456) == "-1234.56")
    }

    @Test func parsed() {
        #expect(parseMoney("80") == 8000)
        #expect(parseMoney("80.5") == 8050)
        #expect(parseMoney("80.50") == 8050)
        #expect(parseMoney("0.07") == 7)
        #expect(parseMoney("0") == 0)
    }

    @Test(arguments: ["", "-1", "80.", ".5", "80.505", "80.5a", "8o", "1.2.3", "80,50", " 80"])
    func refused(_ text: String) {
        #expect(parseMoney(text) == nil)
    }
}

@Suite struct SmallTextTests {
    @Test func countedNouns() {
        #expect(counted(0, "entry", "entries") == "0 entries")
        #expect(counted(1, "entry", "entries") == "1 entry")
        #expect(counted(2, "entry", "entries") == "2 entries")
    }

    @Test func padding() {
        #expect("ab".leftPadded(5) == "   ab")
        #expect("ab".rightPadded(5) == "ab   ")
        #expect("abcdef".leftPadded(5) == "abcdef")
        #expect("abcdef".rightPadded(5) == "abcdef")
        #expect("é".leftPadded(3) == "  é")
    }

    @Test func shellQuoting() {
        #expect(shellQuoted("notify-send") == "notify-send")
        #expect(shellQuoted("a-z_0.9/=:@%+,") == "a-z_0.9/=:@%+,")
        #expect(shellQuoted("Café") == "Café")
        #expect(shellQuoted("two words") == "'two words'")
        #expect(shellQuoted("it's") == "'it'\\''s'")
        #expect(shellQuoted("$HOME") == "'$HOME'")
        #expect(shellQuoted("") == "''")
    }
}

@Suite struct SignedAmountTests {
    @Test func signedAmounts() {
        #expect(TimeExpression.signedAmount("-2h") == -7200)
        #expect(TimeExpression.signedAmount("+15m") == 900)
        #expect(TimeExpression.signedAmount("-1h30m") == -5400)
        #expect(TimeExpression.signedAmount(" \t-1d ") == -86_400)
    }

    @Test(arguments: ["2h", "90m ago", "", "-", "-2x", "\n-2h", "yesterday"])
    func notSignedAmounts(_ text: String) {
        #expect(TimeExpression.signedAmount(text) == nil)
    }
}

@Suite struct PeriodTests {
    @Test func titles() {
        let friday = Instant(seconds: 1_795_170_600)
        #expect(prague.title(of: .day, span: prague.span(.day, containing: friday)) == "Fri 2026-11-20")
        #expect(prague.title(of: .week, span: prague.span(.week, containing: friday)) == "week 2026-11-16 – 2026-11-22")
        #expect(prague.title(of: .week, span: prague.span(.week, containing: friday, weekStart: .sunday))
                    == "week 2026-11-15 – 2026-11-21")
        #expect(prague.title(of: .month, span: prague.span(.month, containing: friday)) == "2026-11")
    }

    @Test func entriesByTheDayTheyStart() {
        // Newest first, as a page of `trackee log`: Friday 00:30 and 11:30,
        // then Thursday 11:03 (23:30Z is Friday in Prague).
        let entries = [entry(start: 1_795_170_600), entry(start: 1_795_131_000), entry(start: 1_795_082_580)]
        let days = prague.days(of: entries)
        #expect(days.map { $0.date.description } == ["2026-11-20", "2026-11-19"])
        #expect(days.map { $0.entries.map(\.start.seconds) } == [[1_795_170_600, 1_795_131_000], [1_795_082_580]])
        #expect(Zone.utc.days(of: entries).map { $0.date.description } == ["2026-11-20", "2026-11-19"])
        #expect(Zone.utc.days(of: entries).map { $0.entries.count } == [1, 2])
        #expect(prague.days(of: []).isEmpty)
    }
}

@Suite struct LoggedParametersReadBackTests {
    @Test func readsBackWhatTheLogWrote() {
        let p = TimerParameters(project: "Docs \"x\"", client: "Acme", description: "é\n", tags: ["a", "b"])
        let text = Intent(.start(p), at: Instant(seconds: 5)).loggedParameters
        #expect(TimerParameters(loggedParameters: text) == p)
        let bare = TimerParameters()
        #expect(TimerParameters(loggedParameters: Intent(.start(bare), at: Instant(seconds: 5)).loggedParameters) == bare)
    }

    @Test func membersOfAnotherTypeReadAsNone() {
        #expect(TimerParameters(loggedParameters: #"{"at":1,"project":3,"description":null,"tags":["a",2]}"#)
                    == TimerParameters())
        #expect(TimerParameters(loggedParameters: #"{"at":1}"#) == TimerParameters())
    }

    @Test func textThatIsNoObjectIsNone() {
        #expect(TimerParameters(loggedParameters: "") == nil)
        #expect(TimerParameters(loggedParameters: "[1]") == nil)
        #expect(TimerParameters(loggedParameters: "{\"at\":") == nil)
    }
}
