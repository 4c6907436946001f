import Glibc
import Logging
import Testing
@testable import TrackeeAutomation

@Suite struct StderrLogHandlerTests {
    /// A stream, open on /dev/null, and `$JOURNAL_STREAM` as systemd would
    /// set it for that stream (`DEVICE:INODE`).
    struct Stream: ~Copyable {
        let fd: Int32
        let journalStream: String

        init() throws {
            fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
            var info = stat()
            guard fd >= 0, fstat(fd, &info) == 0 else { throw Errno() }
            journalStream = "\(info.st_dev):\(info.st_ino)"
        }

        deinit { close(fd) }
    }

    struct Errno: Error {}

    @Test func underTheJournalLinesStartWithTheirPriorityAndEndInTheMetadata() throws {
        let stream = try Stream()
        var handler = StderrLogHandler(label: "trackee run", environment: ["JOURNAL_STREAM": stream.journalStream],
                                       stream: stream.fd)
        handler[metadataKey: "rule.id"] = "office"
        #expect(handler.format(.info, "fired", nil) == "<6>fired rule.id=office")
        #expect(handler.format(.warning, "bad line 3", ["line": "3"]) == "<4>bad line 3 line=3 rule.id=office")
        #expect(handler.format(.error, "two\nlines", nil) == "<3>two lines rule.id=office")
        #expect(handler.format(.debug, "d", nil) == "<7>d rule.id=office")
        #expect(handler.format(.critical, "c", nil) == "<2>c rule.id=office")
        #expect(handler.format(.notice, "n", nil) == "<5>n rule.id=office")
    }

    /// For a person, an error is one line: the label, the level and the
    /// message, without the metadata the journal gets.
    @Test func elsewhereTheLevelIsSpelledOutAndTheMetadataLeftOut() {
        var handler = StderrLogHandler(label: "trackee run", environment: [:])
        handler[metadataKey: "rule.id"] = "office"
        #expect(handler.format(.warning, "bad line 3", nil) == "trackee run: warning: bad line 3")
        #expect(handler.format(.error, "refused: no project \"Office\"", ["firing.key": "office@1"])
            == "trackee run: error: refused: no project \"Office\"")
    }

    @Test func verboseEndsEachLineInItsMetadata() {
        var handler = StderrLogHandler(label: "trackee run", environment: [:], verbose: true)
        handler[metadataKey: "rule.id"] = "office"
        #expect(handler.format(.error, "refused", ["firing.key": "office@1"])
            == "trackee run: error: refused firing.key=office@1 rule.id=office")
        #expect(handler.format(.info, "loaded", nil) == "trackee run: info: loaded rule.id=office")
    }

    /// `$JOURNAL_STREAM` inherited by a program whose stderr is somewhere
    /// else (a shell in a terminal a user service started): a person
    /// reads it.
    @Test func aJournalStreamNamingAnotherStreamIsNotTheJournal() throws {
        let stream = try Stream()
        for value in ["8:12345", "", "x:y", stream.journalStream + ":1", "1:" + stream.journalStream] {
            var handler = StderrLogHandler(label: "trackee", environment: ["JOURNAL_STREAM": value], stream: stream.fd)
            handler[metadataKey: "rule.id"] = "office"
            #expect(handler.format(.error, "refused", nil) == "trackee: error: refused", "\(value)")
        }
        #expect(StderrLogHandler.isJournal(stream.fd, environment: ["JOURNAL_STREAM": stream.journalStream]))
        #expect(!StderrLogHandler.isJournal(-1, environment: ["JOURNAL_STREAM": stream.journalStream]))
    }
}
