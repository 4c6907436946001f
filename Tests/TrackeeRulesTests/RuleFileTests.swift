import Testing
import TrackeeCore
import TrackeeRules

@Suite("Rule files: the parsed model")
struct RuleFileTests {
    static let realistic = """
        places:
          office: {lat: 50.0875, lon: 14.4213, radius: 150}
          home:
            lat: -33.86
            lon: 151
        calendars:
          work: ~/.calendars/work
          holidays: {path: /usr/share/holidays/cz.ics}
        rules:
          - id: office-hours
            name: Office hours
            when: {at: "Mon..Fri 09:00"}
            if:
              weekdays: mon-fri
              time: "08:00-18:00"
              focus: none
              timer: stopped
            do:
              - start: {project: Office, client: ACME, description: "Desk day {{trigger.time}}", tags: [office, auto]}
              - notify: Started office hours
            catchup: once
            max_late: 1h30m

          - id: deep_work.v2
            when:
              - focus: deep
              - focus: Deep Work
                state: on
            if:
              - any:
                  - weekdays: [sat, sun]
                  - time: 22:00-06:00
              - not: {timer: {running: Deep}}
            do:
              - start: {project: "{{ trigger.mode }}"}
              - run: [notify-send, "Focus {{trigger.mode}}", "{{trigger.state}}"]
            cooldown: 10m

          - id: focus-off
            enabled: false
            when: {focus: deep, state: off}
            if:
              not: {focus: none, weekdays: "fri-mon"}
              timer: running
              focus: Deep
            do:
              - stop:
              - cancel: {}
              - notify: {title: Stopped, body: "{{trigger.rule}} at {{trigger.time}}"}
              - start:
            catchup: skip
            max_late: 0s
        """

    @Test func aRealisticFileLoadsEveryKindExactly() throws {
        let result = load([("rules.yaml", Self.realistic)])
        #expect(result.errors == [])
        #expect(
            result.ruleSet.places == [
                Place(name: "office", latitude: 50.0875, longitude: 14.4213, radius: 150),
                Place(name: "home", latitude: -33.86, longitude: 151, radius: 100),
            ])
        #expect(
            result.ruleSet.calendars == [
                // Each with where its path is written, for errors about the calendar.
                CalendarReference(name: "work", path: "~/.calendars/work", origin: "rules.yaml:7:9: calendars.work"),
                CalendarReference(name: "holidays", path: "/usr/share/holidays/cz.ics", origin: "rules.yaml:8:20: calendars.holidays"),
            ])
        let expected = [
            Rule(
                id: "office-hours", name: "Office hours",
                triggers: [.schedule(expression: "Mon..Fri 09:00")],
                conditions: [
                    .weekdays([.monday, .tuesday, .wednesday, .thursday, .friday]),
                    .time(TimeWindow(start: 8 * 60, end: 18 * 60)),
                    .focus(nil),
                    .timer(.stopped),
                ],
                actions: [
                    .start(
                        TimerTemplate(
                            project: template("Office"), client: template("ACME"),
                            description: template("Desk day {{trigger.time}}"),
                            tags: [template("office"), template("auto")])),
                    .notify(title: template("Started office hours"), body: nil),
                ],
                catchup: .once, maxLate: .seconds(5400)),
            Rule(
                id: "deep_work.v2",
                triggers: [.focus(mode: "deep", state: .on), .focus(mode: "Deep Work", state: .on)],
                conditions: [
                    .any([.weekdays([.saturday, .sunday]), .time(TimeWindow(start: 22 * 60, end: 6 * 60))]),
                    .not(.timer(.runningProject("Deep"))),
                ],
                actions: [
                    .start(TimerTemplate(project: template("{{ trigger.mode }}"))),
                    .run([template("notify-send"), template("Focus {{trigger.mode}}"), template("{{trigger.state}}")]),
                ],
                cooldown: .seconds(600)),
            Rule(
                id: "focus-off", enabled: false,
                triggers: [.focus(mode: "deep", state: .off)],
                conditions: [
                    .not(.all([.focus(nil), .weekdays([.friday, .saturday, .sunday, .monday])])),
                    .timer(.running),
                    .focus("Deep"),
                ],
                actions: [
                    .stop, .cancel,
                    .notify(title: template("Stopped"), body: template("{{trigger.rule}} at {{trigger.time}}")),
                    .start(TimerTemplate()),
                ],
                catchup: .skip, maxLate: .zero),
        ]
        #expect(result.ruleSet.rules == expected)
    }

    @Test func filesMergeInTheOrderGiven() {
        let result = load([
            ("rules.yaml", "places:\n  home: {lat: 1, lon: 2}\nrules:\n  - {id: b, when: {focus: x}, do: [stop: ]}\n"),
            ("rules.d/a.yaml", "calendars:\n  work: /cal\nrules:\n  - {id: a, when: {focus: y}, do: [cancel: ]}\n"),
        ])
        #expect(result.errors == [])
        #expect(result.ruleSet.rules.map(\.id) == ["b", "a"])
        #expect(result.ruleSet.places == [Place(name: "home", latitude: 1, longitude: 2)])
        #expect(result.ruleSet.calendars == [CalendarReference(name: "work", path: "/cal", origin: "rules.d/a.yaml:2:9: calendars.work")])
    }

    /// Plain project names in `start` are kept with their line, for
    /// `rules check` to hold against the store; a template is known only at
    /// firing, and a rule with an error is not loaded, so neither is kept.
    @Test func projectsNamedAsPlainTextAreKeptWithTheirPosition() {
        let result = load([("rules.yaml", """
            rules:
              - {id: a, when: {focus: x}, do: [{start: {project: Office}}, {start: {project: "{{trigger.mode}}"}}]}
              - {id: b, when: {focus: y}, do: [{start: {project: Docs}}, {stop: 3}]}
              - id: c
                when: {focus: z}
                do:
                  - stop
                  - start: {project: Deep work, client: Acme}
            """)])
        #expect(result.errors.count == 1)
        #expect(result.ruleSet.projectMentions.map { "\($0.position) \($0.rule) \($0.path) \($0.project)" } == [
            "rules.yaml:2:54 a do[0].start.project Office",
            "rules.yaml:8:26 c do[1].start.project Deep work",
        ])
    }

    @Test func anEmptyFileIsAnEmptyRuleSet() {
        let result = load([("rules.yaml", "# nothing yet\n"), ("b.yaml", "rules:\n")])
        #expect(result == RuleLoadResult(ruleSet: RuleSet(), errors: []))
    }

    @Test func weekdaysTakeNamesListsRangesAndWrappedRanges() throws {
        let loaded = try rules(
            """
            rules:
              - {id: a, when: {focus: x}, do: [stop: ], if: {weekdays: "sat,sun"}}
              - {id: b, when: {focus: x}, do: [stop: ], if: {weekdays: [Monday, wed-thu]}}
              - {id: c, when: {focus: x}, do: [stop: ], if: {weekdays: sun-tue}}
              - {id: d, when: {focus: x}, do: [stop: ], if: {weekdays: FRI}}
            """)
        #expect(
            loaded.map(\.conditions) == [
                [.weekdays([.saturday, .sunday])],
                [.weekdays([.monday, .wednesday, .thursday])],
                [.weekdays([.sunday, .monday, .tuesday])],
                [.weekdays([.friday])],
            ])
    }

    @Test func timeWindowsMayEndAtMidnight() throws {
        let loaded = try rules("rules:\n  - {id: a, when: {focus: x}, do: [stop: ], if: {time: \"9:30 - 24:00\"}}\n")
        #expect(loaded[0].conditions == [.time(TimeWindow(start: 570, end: 1440))])
        #expect(TimeWindow(start: 570, end: 1440).description == "09:30-24:00")
    }
}
