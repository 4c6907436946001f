import Testing
import TrackeeCore
import TrackeeRules

@Suite("Templates")
struct TemplateTests {
    @Test func triggerTextStaysOneArgumentByteForByte() throws {
        let engine = RuleEngine(
            rules: try rules(
                """
                rules:
                  - id: echo
                    when: {focus: "$(touch /tmp/pwned); rm -rf ~"}
                    do:
                      - run: [printf, "%s\\n", "{{trigger.mode}}", "mode={{ trigger.mode }}!"]
                """))
        let mode = "$(touch /tmp/pwned); rm -rf ~"
        let firings = engine.evaluate(
            TriggerEvent(.focus(mode: mode, state: .on, sequence: 1), time: Instant(seconds: 0)),
            snapshot: Snapshot(zone: .utc))
        guard case .run(let argv, let environment) = firings.first?.actions.first else {
            Issue.record("expected one run action, got \(firings)")
            return
        }
        #expect(argv.count == 4)
        #expect(Array(argv[2].utf8) == Array(mode.utf8))
        #expect(argv == ["printf", "%s\n", mode, "mode=" + mode + "!"])
        #expect(environment["TRACKEE_TRIGGER_MODE"] == mode)
    }

    @Test func fieldsAreListedAndFilledWithSpacesInsideBracesAllowed() throws {
        let template = try Template("{{trigger.mode}}{{ trigger.state }} at {{  trigger.time}}.")
        #expect(template.fields == ["mode", "state", "time"])
        #expect(template.render(["mode": "deep", "state": "on", "time": "09:00"]) == "deepon at 09:00.")
        #expect(template.render([:]) == " at .")
        #expect(template.description == "{{trigger.mode}}{{ trigger.state }} at {{  trigger.time}}.")
    }

    @Test func textWithoutPlaceholdersIsKeptAsIs() throws {
        let template = try Template("50% {done} }} {")
        #expect(template.fields == [])
        #expect(template.render(["x": "y"]) == "50% {done} }} {")
    }

    @Test func anUnclosedPlaceholderIsAnError() {
        #expect(throws: TemplateError.self) { try Template("Focus {{trigger.mode") }
        #expect(
            errorLines("rules:\n  - id: a\n    when: {focus: x}\n    do: [{notify: \"{{trigger.mode\"}]\n") == [
                "rules.yaml:4:19: rule \"a\": do[0].notify: \"{{\" is not closed; write {{trigger.FIELD}}, such as {{trigger.time}}"
            ])
    }

    @Test func aPlaceholderMustNameATriggerField() {
        #expect(
            errorLines("rules:\n  - id: a\n    when: {focus: x}\n    do: [{start: {tags: [\"{{ mode }}\"]}}]\n") == [
                "rules.yaml:4:26: rule \"a\": do[0].start.tags[0]: \"{{ mode }}\" is not a template field; write {{trigger.FIELD}}, such as {{trigger.time}}"
            ])
    }

    @Test func aTagCannotHoldAComma() {
        #expect(
            errorLines("rules:\n  - id: a\n    when: {focus: x}\n    do: [{start: {tags: [\"a,b\"]}}]\n") == [
                "rules.yaml:4:26: rule \"a\": do[0].start.tags[0]: a tag cannot contain a comma; make each tag its own list item"
            ])
    }
}
