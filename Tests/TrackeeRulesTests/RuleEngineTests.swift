import Testing
import TrackeeCore
import TrackeeRules

private let prague = try! Zone(identifier: "Europe/Prague")
private let newYork = try! Zone(identifier: "America/New_York")

/// Local wall time in `zone`, as the instant a manual clock would show.
private func at(_ zone: Zone, _ day: (Int, Int, Int), _ hour: Int, _ minute: Int) -> Instant {
    zone.instant(for: LocalDateTime(year: day.0, month: day.1, day: day.2, hour: hour, minute: minute))
}

private func focusEvent(_ mode: String, _ state: FocusState = .on, sequence: Int64 = 17, at time: Instant)
    -> TriggerEvent
{
    TriggerEvent(.focus(mode: mode, state: state, sequence: sequence), time: time)
}

private func engine(_ yaml: String) throws -> RuleEngine {
    RuleEngine(rules: try rules(yaml))
}

/// The ids of the rules `event` fires.
private func fired(_ engine: RuleEngine, _ event: TriggerEvent, _ snapshot: Snapshot) -> [String] {
    engine.evaluate(event, snapshot: snapshot).map(\.rule)
}

private let monday = (2026, 11, 23)
private let friday = (2026, 11, 27)
private let saturday = (2026, 11, 28)

@Suite("Rule engine")
struct RuleEngineTests {
    @Test func aScheduleEventFiresItsRuleWithEveryActionResolved() throws {
        let engine = try engine(
            """
            rules:
              - id: office-hours
                name: Office hours
                when: {at: "Mon..Fri 09:00"}
                do:
                  - start: {project: Office, client: ACME, description: "from {{trigger.at}}", tags: [auto, "{{trigger.kind}}"]}
                  - notify: {title: "{{trigger.rule}}", body: "at {{trigger.time}}"}
                  - stop:
                  - run: [logger, "{{trigger.time}}"]
              - id: other
                when: {at: "Mon..Fri 09:00"}
                do: [cancel: ]
            """)
        let time = Instant(seconds: 1_795_420_800)  // Monday 2026-11-23 09:00 in Prague
        let event = TriggerEvent(.schedule(rule: "office-hours", expression: "Mon..Fri 09:00"), time: time)
        let firings = engine.evaluate(event, snapshot: Snapshot(zone: prague))
        let key = FiringKey(rule: "office-hours", occurrence: "at:1795420800")
        #expect(key.text == "office-hours@at:1795420800")
        #expect(
            firings == [
                Firing(
                    key: key, time: time, trigger: "schedule Mon..Fri 09:00",
                    description:
                        "rule \"office-hours\" (Office hours): schedule Mon..Fri 09:00 at 2026-11-23T09:00:00+01:00",
                    actions: [
                        .intent(
                            Intent(
                                .start(
                                    TimerParameters(
                                        project: "Office", client: "ACME", description: "from Mon..Fri 09:00",
                                        tags: ["auto", "schedule"])),
                                at: time, source: .rule("office-hours"), key: "office-hours@at:1795420800#0")),
                        .notify(title: "office-hours", body: "at 2026-11-23T09:00:00+01:00"),
                        .intent(Intent(.stop, at: time, source: .rule("office-hours"), key: "office-hours@at:1795420800#2")),
                        .run(
                            argv: ["logger", "2026-11-23T09:00:00+01:00"],
                            environment: [
                                "TRACKEE_RULE": "office-hours",
                                "TRACKEE_RULE_NAME": "Office hours",
                                "TRACKEE_TRIGGER_KIND": "schedule",
                                "TRACKEE_TRIGGER_TIME": "2026-11-23T09:00:00+01:00",
                                "TRACKEE_TRIGGER_AT": "Mon..Fri 09:00",
                            ]),
                    ])
            ])
    }

    @Test func aScheduleEventNeedsItsRuleEnabledAndHoldingThatExpression() throws {
        let engine = try engine(
            """
            rules:
              - {id: lunch, when: [{at: "12:00"}, {at: "Sat 13:00"}], do: [stop: ]}
              - {id: off, enabled: false, when: {at: "12:00"}, do: [stop: ]}
            """)
        let time = at(prague, monday, 12, 0)
        let snapshot = Snapshot(zone: prague)
        #expect(
            fired(engine, TriggerEvent(.schedule(rule: "lunch", expression: "12:00"), time: time), snapshot) == [
                "lunch"
            ])
        #expect(
            fired(engine, TriggerEvent(.schedule(rule: "lunch", expression: "Sat 13:00"), time: time), snapshot) == [
                "lunch"
            ])
        #expect(fired(engine, TriggerEvent(.schedule(rule: "lunch", expression: "13:00"), time: time), snapshot) == [])
        #expect(fired(engine, TriggerEvent(.schedule(rule: "off", expression: "12:00"), time: time), snapshot) == [])
        #expect(fired(engine, TriggerEvent(.schedule(rule: "gone", expression: "12:00"), time: time), snapshot) == [])
    }

    @Test func weekdaysAndATimeWindowUseTheEventsLocalTime() throws {
        let engine = try engine(
            "rules:\n  - {id: work, when: {focus: x}, if: {weekdays: mon-fri, time: \"09:00-17:00\"}, do: [stop: ]}\n")
        let cases: [(Instant, [String])] = [
            (at(prague, monday, 9, 0), ["work"]),
            (at(prague, monday, 8, 59), []),
            (at(prague, friday, 16, 59), ["work"]),
            (at(prague, friday, 17, 0), []),
            (at(prague, saturday, 12, 0), []),
        ]
        for (time, expected) in cases {
            #expect(fired(engine, focusEvent("x", at: time), Snapshot(zone: prague)) == expected, "at \(time)")
        }
    }

    @Test func aWindowMayWrapPastMidnightAndWeekdaysPastSunday() throws {
        let engine = try engine(
            """
            rules:
              - {id: night, when: {focus: x}, if: {time: "22:00-06:00"}, do: [stop: ]}
              - {id: weekend, when: {focus: x}, if: {weekdays: fri-mon}, do: [stop: ]}
            """)
        let cases: [(Instant, [String])] = [
            (at(prague, (2026, 11, 24), 21, 59), []),
            (at(prague, (2026, 11, 24), 22, 0), ["night"]),
            (at(prague, (2026, 11, 24), 23, 59), ["night"]),
            (at(prague, (2026, 11, 25), 0, 0), ["night"]),
            (at(prague, (2026, 11, 25), 5, 59), ["night"]),
            (at(prague, (2026, 11, 25), 6, 0), []),
            (at(prague, friday, 23, 0), ["night", "weekend"]),
            (at(prague, (2026, 11, 30), 12, 0), ["weekend"]),
        ]
        for (time, expected) in cases {
            #expect(fired(engine, focusEvent("x", at: time), Snapshot(zone: prague)) == expected, "at \(time)")
        }
    }

    @Test func windowsFollowTheWallClockAcrossDSTChanges() throws {
        let engine = try engine(
            """
            rules:
              - {id: one, when: {focus: x}, if: {time: "01:00-02:00"}, do: [stop: ]}
              - {id: two, when: {focus: x}, if: {time: "02:00-03:00"}, do: [stop: ]}
              - {id: three, when: {focus: x}, if: {time: "03:00-04:00"}, do: [stop: ]}
            """)
        // Prague springs forward at 2026-03-29 02:00 CET: 02:xx never happens.
        let pragueCases: [(Int64, [String])] = [
            (1_774_745_999, ["one"]),  // 01:59:59 CET
            (1_774_746_000, ["three"]),  // 03:00:00 CEST
        ]
        for (seconds, expected) in pragueCases {
            #expect(fired(engine, focusEvent("x", at: Instant(seconds: seconds)), Snapshot(zone: prague)) == expected)
        }
        // New York falls back at 2026-11-01 02:00 EDT: 01:xx happens twice.
        let newYorkCases: [(Int64, [String])] = [
            (1_793_511_000, ["one"]),  // 01:30 EDT
            (1_793_514_600, ["one"]),  // 01:30 EST
            (1_793_516_400, ["two"]),  // 02:00 EST
        ]
        for (seconds, expected) in newYorkCases {
            #expect(fired(engine, focusEvent("x", at: Instant(seconds: seconds)), Snapshot(zone: newYork)) == expected)
        }
    }

    @Test func theSameInstantIsADifferentDayInAnotherZone() throws {
        let engine = try engine(
            """
            rules:
              - {id: monday, when: {focus: x}, if: {weekdays: mon}, do: [stop: ]}
              - {id: evening, when: {focus: x}, if: {time: "20:00-22:00"}, do: [stop: ]}
            """)
        let event = focusEvent("x", at: Instant(seconds: 1_795_399_200))  // 2026-11-23T02:00Z
        #expect(fired(engine, event, Snapshot(zone: prague)) == ["monday"])  // Monday 03:00
        #expect(fired(engine, event, Snapshot(zone: newYork)) == ["evening"])  // Sunday 21:00
    }

    @Test func focusTriggersMatchModeIgnoringCaseAndState() throws {
        let engine = try engine(
            """
            rules:
              - {id: on, when: {focus: Deep}, do: [stop: ]}
              - {id: off, when: {focus: deep, state: off}, do: [stop: ]}
              - {id: twice, when: [{focus: deep}, {focus: DEEP, state: on}], do: [stop: ]}
              - {id: other, when: {focus: shallow}, do: [stop: ]}
            """)
        let time = at(prague, monday, 10, 0)
        let snapshot = Snapshot(zone: prague)
        #expect(fired(engine, focusEvent("deep", .on, at: time), snapshot) == ["on", "twice"])
        #expect(fired(engine, focusEvent("DEEP", .off, at: time), snapshot) == ["off"])
        #expect(fired(engine, focusEvent("deeper", .on, at: time), snapshot) == [])
        let keys = engine.evaluate(focusEvent("deep", sequence: 42, at: time), snapshot: snapshot).map(\.key.text)
        #expect(keys == ["on@focus:42", "twice@focus:42"])
    }

    @Test func focusConditionsLookAtTheSnapshot() throws {
        let engine = try engine(
            """
            rules:
              - {id: none, when: {focus: x}, if: {focus: none}, do: [stop: ]}
              - {id: work, when: {focus: x}, if: {focus: Work}, do: [stop: ]}
            """)
        let event = focusEvent("x", at: at(prague, monday, 10, 0))
        #expect(fired(engine, event, Snapshot(zone: prague, focus: nil)) == ["none"])
        #expect(fired(engine, event, Snapshot(zone: prague, focus: "work")) == ["work"])
        #expect(fired(engine, event, Snapshot(zone: prague, focus: "WORK")) == ["work"])
        #expect(fired(engine, event, Snapshot(zone: prague, focus: "play")) == [])
    }

    @Test func timerConditionsCompareProjectsAsTheStoreDoes() throws {
        let engine = try engine(
            """
            rules:
              - {id: running, when: {focus: x}, if: {timer: running}, do: [stop: ]}
              - {id: stopped, when: {focus: x}, if: {timer: stopped}, do: [stop: ]}
              - {id: acme, when: {focus: x}, if: {timer: {running: ACME}}, do: [stop: ]}
              - {id: cafe, when: {focus: x}, if: {timer: {running: Café}}, do: [stop: ]}
            """)
        let event = focusEvent("x", at: at(prague, monday, 10, 0))
        let cases: [(TimerState, [String])] = [
            (.stopped, ["stopped"]),
            (.running(project: "acme", client: nil), ["running", "acme"]),
            (.running(project: nil, client: "ACME"), ["running"]),
            // SQLite's NOCASE folds ASCII letters only.
            (.running(project: "CAFé", client: nil), ["running", "cafe"]),
            (.running(project: "CAFÉ", client: nil), ["running"]),
        ]
        for (timer, expected) in cases {
            #expect(fired(engine, event, Snapshot(zone: prague, timer: timer)) == expected, "\(timer)")
        }
    }

    @Test func anyNeedsOneAndNotNegatesTheWholeMapping() throws {
        let engine = try engine(
            """
            rules:
              - id: r
                when: {focus: x}
                if:
                  - any: [{focus: work}, {timer: running}]
                  - not: {weekdays: sat-sun, time: "00:00-12:00"}
                do: [stop: ]
            """)
        let running = TimerState.running(project: nil, client: nil)
        let cases: [(Instant, Snapshot, Bool)] = [
            (at(prague, monday, 10, 0), Snapshot(zone: prague, focus: "work"), true),
            (at(prague, monday, 10, 0), Snapshot(zone: prague, timer: running), true),
            (at(prague, monday, 10, 0), Snapshot(zone: prague), false),
            (at(prague, saturday, 10, 0), Snapshot(zone: prague, focus: "work"), false),
            (at(prague, saturday, 12, 0), Snapshot(zone: prague, focus: "work"), true),
        ]
        for (time, snapshot, fires) in cases {
            #expect(fired(engine, focusEvent("x", at: time), snapshot) == (fires ? ["r"] : []), "\(time) \(snapshot)")
        }
    }

    @Test func cooldownKeepsARuleQuietUntilItHasPassed() throws {
        let engine = try engine("rules:\n  - {id: r, when: {focus: x}, cooldown: 10m, do: [stop: ]}\n")
        let last = at(prague, monday, 10, 0)
        let cases: [(Instant, [String: Instant], [String])] = [
            (last + 599, ["r": last], []),
            (last + 600, ["r": last], ["r"]),
            (last + 1, [:], ["r"]),
            (last + 1, ["other": last], ["r"]),
        ]
        for (time, lastFired, expected) in cases {
            #expect(fired(engine, focusEvent("x", at: time), Snapshot(zone: prague, lastFired: lastFired)) == expected)
        }
    }

    @Test func firingsAreDeterministicAndTakeTheEventsTimeNotNow() throws {
        let engine = try engine("rules:\n  - {id: focus-work, when: {focus: work}, do: [{start: {project: Work}}]}\n")
        let past = Instant(seconds: 1_600_000_000)  // 2020-09-13T12:26:40Z
        let event = focusEvent("work", sequence: 17, at: past)
        let first = engine.evaluate(event, snapshot: Snapshot(zone: .utc))
        #expect(first == engine.evaluate(event, snapshot: Snapshot(zone: .utc)))
        #expect(
            first == [
                Firing(
                    key: FiringKey(rule: "focus-work", occurrence: "focus:17"), time: past, trigger: "focus work on",
                    description: "rule \"focus-work\": focus work on at 2020-09-13T12:26:40Z",
                    actions: [
                        .intent(
                            Intent(
                                .start(TimerParameters(project: "Work")), at: past, source: .rule("focus-work"),
                                key: "focus-work@focus:17#0"))
                    ])
            ])
    }

    @Test func runGetsTheEventAsEnvironmentVariables() throws {
        let engine = try engine("rules:\n  - {id: log, when: {focus: deep, state: off}, do: [run: [logger]]}\n")
        let firing = engine.evaluate(
            focusEvent("Deep", .off, at: Instant(seconds: 1_795_168_980)), snapshot: Snapshot(zone: prague))
        #expect(
            firing.map(\.actions) == [
                [
                    .run(
                        argv: ["logger"],
                        environment: [
                            "TRACKEE_RULE": "log",
                            "TRACKEE_TRIGGER_KIND": "focus",
                            "TRACKEE_TRIGGER_TIME": "2026-11-20T11:03:00+01:00",
                            "TRACKEE_TRIGGER_MODE": "Deep",
                            "TRACKEE_TRIGGER_STATE": "off",
                        ])
                ]
            ])
    }
}
