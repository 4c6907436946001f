import Logging
import Testing
@testable import TrackeeAutomation

@Suite struct StderrLogHandlerTests {
    @Test func underTheJournalLinesStartWithTheirPriority() {
        var handler = StderrLogHandler(label: "trackee run", environment: ["JOURNAL_STREAM": "8:12345"])
        handler[metadataKey: "rule.id"] = "office"
        #expect(handler.format(.info, "fired", nil) == "<6>fired rule.id=office")
        #expect(handler.format(.warning, "bad line 3", ["line": "3"]) == "<4>bad line 3 line=3 rule.id=office")
        #expect(handler.format(.error, "two\nlines", nil) == "<3>two lines rule.id=office")
        #expect(handler.format(.debug, "d", nil) == "<7>d rule.id=office")
        #expect(handler.format(.critical, "c", nil) == "<2>c rule.id=office")
        #expect(handler.format(.notice, "n", nil) == "<5>n rule.id=office")
    }

    @Test func elsewhereTheLevelIsSpelledOut() {
        let handler = StderrLogHandler(label: "trackee run", environment: [:])
        #expect(handler.format(.warning, "bad line 3", nil) == "trackee run: warning: bad line 3")
    }
}
