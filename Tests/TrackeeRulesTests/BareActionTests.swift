import Testing
import TrackeeRules

/// `- stop` and `- cancel` written as bare words, the way people write them
/// first, and the errors for every other bare word.
@Suite("Rule files: bare actions")
struct BareActionTests {
    @Test func bareStopInAFlowListIsAStop() throws {
        let rules = try rules("rules:\n  - id: a\n    when: {focus: x}\n    do: [stop]\n")
        #expect(rules.map(\.actions) == [[.stop]])
    }

    @Test func bareCancelInABlockListIsACancel() throws {
        let rules = try rules("rules:\n  - id: a\n    when: {focus: x}\n    do:\n      - cancel\n")
        #expect(rules.map(\.actions) == [[.cancel]])
    }

    @Test func bareWordsMixWithMappingsAndMeanTheSameAsTheEmptyMapping() throws {
        let bare = try rules(
            "rules:\n  - id: a\n    when: {focus: x}\n    do:\n      - stop\n      - notify: Stopped\n      - cancel\n")
        let mapped = try rules(
            "rules:\n  - id: a\n    when: {focus: x}\n    do:\n      - stop: {}\n      - notify: Stopped\n      - cancel:\n")
        #expect(bare.map(\.actions) == [[.stop, .notify(title: template("Stopped"), body: nil), .cancel]])
        #expect(bare.map(\.actions) == mapped.map(\.actions))
    }

    @Test func aMisspelledBareWordSuggestsTheNearestAction() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do: [stpo]\n") == [
                "rules.yaml:4:10: rule \"lunch\": do[0]: unknown action \"stpo\"; did you mean \"stop\"?"
            ])
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do:\n      - stop\n      - cancle\n") == [
                "rules.yaml:6:9: rule \"lunch\": do[1]: unknown action \"cancle\"; did you mean \"cancel\"?"
            ])
    }

    /// Action keys are case-sensitive, as every key is.
    @Test func aCapitalisedBareWordSuggestsTheLowerCaseAction() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do: [Stop]\n") == [
                "rules.yaml:4:10: rule \"lunch\": do[0]: unknown action \"Stop\"; did you mean \"stop\"?"
            ])
    }

    @Test func aBareWordFarFromEveryActionListsThem() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do:\n      - pause\n") == [
                "rules.yaml:5:9: rule \"lunch\": do[0]: unknown action \"pause\"; use \"start\", \"stop\", \"cancel\", \"notify\", \"run\""
            ])
    }

    /// `start` alone would be a timer without a project, which is seldom
    /// what was meant; that one is written `start: {}`.
    @Test func bareStartNotifyAndRunSayWhatTheyNeed() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do: [start, notify, run]\n") == [
                "rules.yaml:4:10: rule \"lunch\": do[0]: start needs a mapping, such as start: {project: Office}, or start: {} for a timer without a project",
                "rules.yaml:4:17: rule \"lunch\": do[1]: notify needs a title, such as notify: Lunch break",
                "rules.yaml:4:25: rule \"lunch\": do[2]: run needs a command, such as run: [notify-send, Hello]",
            ])
    }

    @Test func anEmptyItemIsStillAnError() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do:\n      -\n") == [
                "rules.yaml:5:8: rule \"lunch\": do[0]: expected a mapping, found nothing"
            ])
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do: [{}]\n") == [
                "rules.yaml:4:10: rule \"lunch\": do[0]: expected an action: one of \"start\", \"stop\", \"cancel\", \"notify\", \"run\""
            ])
    }
}
