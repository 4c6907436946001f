import Testing
import TrackeeCore

/// Sources and keys keep the text forms every release stored.
@Suite struct ChangeSourceTests {
    @Test(arguments: [
        ("cli", ChangeSource.cli), ("rule:office-hours", .rule("office-hours")), ("stdin", .stdin),
        ("simulate", .simulate), ("http:phone", .http(device: "phone")), ("rule:a:b", .rule("a:b")),
        ("web:phone", .web(device: "phone")), ("import:toggl", .imported(format: "toggl")),
    ])
    func storedTextReadsBack(text: String, source: ChangeSource) {
        #expect(ChangeSource(storedText: text) == source)
        #expect(source.storedText == text)
    }

    @Test(arguments: ["", "rule", "rule:", "http", "http:", "web", "web:", "WEB:phone", "test", "CLI", "cli:x",
                      "stdin:1795425600:on:deep"])
    func otherTextIsNoSource(text: String) {
        #expect(ChangeSource(storedText: text) == nil)
    }

    @Test func aRuleSourceNamesItsRule() {
        #expect(ChangeSource.rule("deep").rule == "deep")
        #expect(ChangeSource.stdin.rule == nil)
        #expect(ChangeSource.storedPrefix(.rule) == "rule:")
    }

    @Test func theWebPageIsANamedKindLikeHTTP() {
        #expect(ChangeSource.web(device: "phone").kind == .web)
        #expect(ChangeSource.storedPrefix(.web) == "web:")
        #expect(ChangeSource.Kind.allCases.filter(ChangeSource.isNamed) == [.rule, .http, .web, .imported])
        #expect(ChangeSource.web(device: "phone") != .http(device: "phone"))
    }

    @Test func aFiringKeyBuildsTheLedgerAndIntentKeys() {
        let key = FiringKey(rule: "standup", occurrence: "cal:work:standup@example.com:1795422600:start:-120")
        #expect(key.text == "standup@cal:work:standup@example.com:1795422600:start:-120")
        #expect(key.intentKey(1) == "standup@cal:work:standup@example.com:1795422600:start:-120#1")
        let event = TriggerEvent(.focus(mode: "deep", state: .on, sequence: 7), time: Instant(seconds: 0))
        #expect(event.firingKey(rule: "r") == FiringKey(rule: "r", occurrence: "focus:7"))
        #expect(event.formerFiringKey(rule: "r") == nil)
    }

    @Test func aFocusLineKeyFoldsTheModeAsReleasesDid() {
        let key = FocusLineKey(time: Instant(seconds: 1_795_425_600), state: .off, mode: "Deep Work")
        #expect(key.text == "stdin:1795425600:off:deep work")
    }
}
