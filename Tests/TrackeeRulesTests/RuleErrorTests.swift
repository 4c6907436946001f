import Testing
import TrackeeCore
import TrackeeRules

/// One test per kind of mistake, each pinning the exact line `rules check`
/// prints.
@Suite("Rule files: positioned errors")
struct RuleErrorTests {
    @Test func yamlSyntaxError() {
        #expect(
            errorLines("rules:\n  - id: a\n     when: {focus: x}\n") == [
                "rules.yaml:3:10: YAML: mapping values are not allowed in this context"
            ])
    }

    @Test func anUnquotedCalendarExpressionGetsAHint() {
        let lines = errorLines("rules:\n  - id: a\n    when: {at: x}\n    do: [{stop: }]\n  - id: b\n    when:\n      at: *-*-* 19:00\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("rules.yaml:7:") == true)
        #expect(lines.first?.hasSuffix(
            #"YAML: did not find expected alphabetic or numeric character; a value that starts with * must be quoted, as in at: "*-*-* 19:00""#) == true)
    }

    @Test func duplicateYAMLKey() {
        #expect(
            errorLines("rules:\n  - id: a\n    id: b\n") == ["rules.yaml:2:5: YAML: duplicate key \"id\""])
    }

    @Test func unknownTopLevelKeySuggestsTheNearest() {
        #expect(
            errorLines("places: {}\nrule:\n  - id: a\n") == [
                "rules.yaml:2:1: rule: unknown key \"rule\"; did you mean \"rules\"?"
            ])
    }

    @Test func aDocumentThatIsNotAMapping() {
        #expect(errorLines("- id: a\n") == ["rules.yaml:1:1: expected a mapping, found a list"])
    }

    @Test func missingID() {
        #expect(
            errorLines("rules:\n  - name: Lunch\n    when: {focus: x}\n    do: [stop: ]\n") == [
                "rules.yaml:2:5: rules[0].id: required key \"id\" is missing"
            ])
    }

    @Test func invalidID() {
        #expect(
            errorLines("rules:\n  - id: lunch break\n    when: {focus: x}\n    do: [stop: ]\n") == [
                "rules.yaml:2:9: rules[0].id: invalid id \"lunch break\"; use letters, digits, \"-\", \"_\" and \".\""
            ])
    }

    @Test func duplicateIDAcrossFilesNamesBothPositions() {
        let result = load([
            ("rules.yaml", "rules:\n  - id: standup\n    when: {at: \"Mon 10:00\"}\n    do: [stop: ]\n"),
            ("rules.d/team.yaml", "# team rules\nrules:\n  - when: {focus: x}\n    id: standup\n    do: [cancel: ]\n"),
        ])
        #expect(
            result.errors.map(\.description) == [
                "rules.d/team.yaml:4:9: rule \"standup\": id: duplicate rule id \"standup\"; first defined at rules.yaml:2:9"
            ])
        #expect(result.ruleSet.rules.map(\.actions) == [[.stop]])
    }

    @Test func unknownRuleKeySuggestsTheNearest() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do: [stop: ]\n    cooldwon: 5m\n") == [
                "rules.yaml:5:5: rule \"lunch\": cooldwon: unknown key \"cooldwon\"; did you mean \"cooldown\"?"
            ])
    }

    @Test func whenMissing() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    do: [stop: ]\n") == [
                "rules.yaml:2:5: rule \"lunch\": when: required key \"when\" is missing"
            ])
    }

    @Test func unknownTriggerKeySuggestsTheNearest() {
        #expect(
            errorLines(
                "rules:\n  - id: lunch\n    when:\n      - at: \"12:00\"\n      - foucs: deep\n    do: [stop: ]\n")
                == ["rules.yaml:5:9: rule \"lunch\": when[1].foucs: unknown trigger \"foucs\"; did you mean \"focus\"?"]
        )
    }

    @Test func unknownTriggerOptionSuggestsTheNearest() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: deep, stat: off}\n    do: [stop: ]\n") == [
                "rules.yaml:3:25: rule \"lunch\": when.stat: unknown key \"stat\"; did you mean \"state\"?"
            ])
    }

    @Test func twoTriggerKindsInOneItem() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {at: \"12:00\", focus: deep}\n    do: [stop: ]\n") == [
                "rules.yaml:3:25: rule \"lunch\": when.focus: one trigger per item, found \"at\" and \"focus\"; make each its own list item"
            ])
    }

    @Test func badAtExpressionReportsTheValidatorsMessageAtTheValue() {
        #expect(
            errorLines(
                "rules:\n  - id: lunch\n    when:\n      - focus: x\n      - at: Mon..Fry 12:00\n    do: [stop: ]\n")
                == [
                    "rules.yaml:5:13: rule \"lunch\": when[1].at: invalid calendar expression \"Mon..Fry 12:00\": unknown weekday \"Fry\""
                ])
    }

    @Test func badFocusState() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: deep, state: maybe}\n    do: [stop: ]\n") == [
                "rules.yaml:3:32: rule \"lunch\": when.state: expected on or off, found \"maybe\""
            ])
    }

    @Test func badWeekday() {
        #expect(
            errorLines(
                "rules:\n  - id: lunch\n    when: {focus: x}\n    if: {weekdays: [mon, thurs, fry]}\n    do: [stop: ]\n"
            )
                == [
                    "rules.yaml:4:33: rule \"lunch\": if.weekdays[2]: unknown weekday \"fry\"; use mon, tue, wed, thu, fri, sat, sun or a range such as mon-fri"
                ])
    }

    @Test func badTimeRange() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    if:\n      - time: 9-5\n    do: [stop: ]\n")
                == [
                    "rules.yaml:5:15: rule \"lunch\": if[0].time: expected a window such as \"09:00-17:00\" or \"22:00-06:00\", found \"9-5\""
                ])
    }

    @Test func emptyTimeRange() {
        #expect(
            errorLines(
                "rules:\n  - id: lunch\n    when: {focus: x}\n    if: {time: \"12:00-12:00\"}\n    do: [stop: ]\n") == [
                    "rules.yaml:4:16: rule \"lunch\": if.time: the window \"12:00-12:00\" starts where it ends; write a window that ends later"
                ])
    }

    @Test func badTimerValue() {
        #expect(
            errorLines(
                "rules:\n  - id: lunch\n    when: {focus: x}\n    if: {any: [{timer: paused}]}\n    do: [stop: ]\n")
                == [
                    "rules.yaml:4:24: rule \"lunch\": if.any[0].timer: expected running, stopped or {running: PROJECT}, found \"paused\""
                ])
    }

    @Test func unknownConditionSuggestsTheNearest() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    if: {not: {weekday: mon}}\n    do: [stop: ]\n")
                == [
                    "rules.yaml:4:16: rule \"lunch\": if.not.weekday: unknown condition \"weekday\"; did you mean \"weekdays\"?"
                ])
    }

    @Test func runGivenAStringInsteadOfAnArgvList() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do:\n      - run: notify-send hello\n") == [
                "rules.yaml:5:14: rule \"lunch\": do[0].run: give the command as a list of arguments, such as [notify-send, \"Timer started\"]; a single string would need a shell, and rules never use one"
            ])
    }

    @Test func emptyDo() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do: []\n") == [
                "rules.yaml:4:9: rule \"lunch\": do: expected at least one action, such as - stop: {}"
            ])
    }

    @Test func unknownActionParameterSuggestsTheNearest() {
        #expect(
            errorLines(
                "rules:\n  - id: office-hours\n    when: {at: \"09:00\"}\n    do:\n      - start:\n          projet: Office\n"
            )
                == [
                    "rules.yaml:6:11: rule \"office-hours\": do[0].start.projet: unknown key \"projet\"; did you mean \"project\"?"
                ])
    }

    @Test func unknownTemplateFieldForOneOfTheTriggerKinds() {
        // `mode` is a focus field; schedule events do not have it.
        #expect(
            errorLines(
                "rules:\n  - id: lunch\n    when: [{focus: x}, {at: \"12:00\"}]\n    do:\n      - notify: {title: \"{{ trigger.mode }}\"}\n"
            ) == [
                "rules.yaml:5:25: rule \"lunch\": do[0].notify.title: unknown template field \"trigger.mode\"; this rule's triggers give trigger.kind, trigger.time, trigger.rule"
            ])
    }

    @Test func misspelledTemplateFieldSuggestsTheNearest() {
        #expect(
            errorLines(
                "rules:\n  - id: lunch\n    when: {focus: x}\n    do:\n      - run: [echo, \"{{trigger.mod}}\"]\n") == [
                    "rules.yaml:5:21: rule \"lunch\": do[0].run[1]: unknown template field \"trigger.mod\"; did you mean \"trigger.mode\"?"
                ])
    }

    @Test func badCooldown() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do: [stop: ]\n    cooldown: 10 minutes\n") == [
                "rules.yaml:5:15: rule \"lunch\": cooldown: expected a duration such as 30s, 10m, 2h or 1h30m, found \"10 minutes\""
            ])
    }

    @Test func badCatchup() {
        #expect(
            errorLines("rules:\n  - id: lunch\n    when: {focus: x}\n    do: [stop: ]\n    catchup: twice\n") == [
                "rules.yaml:5:14: rule \"lunch\": catchup: expected skip or once, found \"twice\""
            ])
    }

    @Test func placeOutOfRange() {
        #expect(
            errorLines("places:\n  office:\n    lat: 91\n    lon: 14\n") == [
                "rules.yaml:3:10: places.office.lat: expected a latitude from -90 to 90, found \"91\""
            ])
    }

    @Test func duplicatePlaceAndCalendarAcrossFiles() {
        let result = load([
            ("rules.yaml", "places:\n  office: {lat: 50, lon: 14}\ncalendars:\n  work: /a.ics\n"),
            ("b.yaml", "calendars:\n  work: {path: /b.ics}\nplaces:\n  office: {lat: 1, lon: 2}\n"),
        ])
        #expect(
            result.errors.map(\.description) == [
                "b.yaml:2:3: calendars.work: duplicate calendar \"work\"; first defined at rules.yaml:4:3",
                "b.yaml:4:3: places.office: duplicate place \"office\"; first defined at rules.yaml:2:3",
            ])
        #expect(result.ruleSet.places == [Place(name: "office", latitude: 50, longitude: 14)])
        #expect(result.ruleSet.calendars == [CalendarReference(name: "work", path: "/a.ics", origin: "rules.yaml:4:9: calendars.work")])
    }

    @Test func everyProblemOfOneRuleIsReportedInStageOrder() {
        #expect(
            errorLines(
                """
                rules:
                  - id: all-wrong
                    enabled: sometimes
                    when: {at: Fry}
                    if: {time: noon}
                    do: [{stop: now}]
                """) == [
                    "rules.yaml:3:14: rule \"all-wrong\": enabled: expected true or false, found \"sometimes\"",
                    "rules.yaml:4:16: rule \"all-wrong\": when.at: invalid calendar expression \"Fry\": unknown weekday \"Fry\"",
                    "rules.yaml:5:16: rule \"all-wrong\": if.time: expected a window such as \"09:00-17:00\" or \"22:00-06:00\", found \"noon\"",
                    "rules.yaml:6:17: rule \"all-wrong\": do[0].stop: expected nothing or {}, found \"now\"",
                ])
    }

    @Test func aBadRuleIsReportedAndLeftOutWhileTheGoodOnesLoad() {
        let result = load([
            (
                "rules.yaml",
                """
                rules:
                  - id: good
                    when: {focus: deep}
                    do: [stop: ]
                  - id: bad
                    when: {focus: deep}
                    do: [{start: {project: X, tag: [a]}}]
                  - id: also-good
                    when: {at: "09:00"}
                    do: [cancel: ]
                """
            )
        ])
        #expect(
            result.errors.map(\.description) == [
                "rules.yaml:7:31: rule \"bad\": do[0].start.tag: unknown key \"tag\"; did you mean \"tags\"?"
            ])
        #expect(result.ruleSet.rules.map(\.id) == ["good", "also-good"])
    }

    @Test func errorsCarryTheirParts() {
        let error = load([("r.yaml", "rules:\n  - id: x\n    when: {focus: x}\n    do: [{notify: {}}]\n")]).errors
        #expect(
            error == [
                RuleError(
                    file: "r.yaml", line: 4, column: 19, rule: "x", path: "do[0].notify.title",
                    message: "required key \"title\" is missing")
            ])
    }
}
