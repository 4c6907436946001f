import Foundation
import Testing
import TrackeeCalendar
import TrackeeCore
import TrackeeRules
import TrackeeStore
import TrackeeTestSupport

@testable import TrackeeAutomation

private let utc = Zone.utc

/// A calendar with one event, whose fourth line is a property without a
/// colon: read past with a warning.
private let oddCalendar = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//trackee//tests//EN
    X-LOST=fold
    BEGIN:VEVENT
    UID:standup
    DTSTART:20261123T083000Z
    DTEND:20261123T084500Z
    SUMMARY:Standup
    END:VEVENT
    END:VCALENDAR

    """

@Suite struct LoadedRulesTests {
    @Test func theRulesWithoutErrorsLoadAndEachErrorIsASentence() throws {
        let folder = try TemporaryDirectory("trackee-rules-")
        let rules = try folder.write("""
            rules:
              - id: good
                when: {at: "09:00"}
                do: [stop]
              - id: bad
                when: {at: "09:00"}
                do: [fly]
            """, to: "rules.yaml")
        let loaded = Automation.read(ruleFiles: [rules, folder.path + "/missing.yaml"], environment: [:], zone: utc)
        #expect(loaded.automation.ruleSet.rules.map(\.id) == ["good"])
        #expect(loaded.errors.count == 2)
        #expect(loaded.errors[0] == "\(folder.path)/missing.yaml: no such rule file")
        #expect(loaded.errors[1].hasPrefix("\(rules):7:"))
        #expect(loaded.warnings == [])
        #expect(loaded.warningCount == 0)
    }

    @Test func theCalendarsTheRulesNameAreReadWithTheirWarnings() throws {
        let folder = try TemporaryDirectory("trackee-rules-")
        let ics = try folder.write(oddCalendar, to: "work.ics")
        let rules = try folder.write("""
            calendars:
              work: \(ics)
              gone: \(folder.path)/gone.ics
            rules:
              - id: meetings
                when: {calendar: work}
                do: [{start: {project: Meetings}}]
            """, to: "rules.yaml")
        let loaded = Automation.read(ruleFiles: [rules], environment: [:], zone: utc)
        #expect(Array(loaded.automation.calendars.keys) == ["work"])
        #expect(loaded.errors == ["\(rules):3:9: calendars.gone: \(folder.path)/gone.ics: no such calendar file or folder"])
        #expect(loaded.warnings == [#"calendar "work": \#(ics):4: X-LOST: expected ":" before the value; skipped the property"#])
        #expect(loaded.warningCount == 1)
        // Without calendars: none read, no error about them.
        let bare = Automation.read(ruleFiles: [rules], environment: [:], zone: utc, calendars: false)
        #expect(bare.automation.calendars.isEmpty)
        #expect(bare.errors == [])
        #expect(bare.automation.ruleSet.calendars.map(\.name) == ["work", "gone"])
    }

    @Test func aCalendarIsNamedByTheRulesOrByItsPath() throws {
        let folder = try TemporaryDirectory("trackee-rules-")
        let ics = try folder.write(oddCalendar, to: "work.ics")
        let defined = [CalendarReference(name: "work", path: ics), CalendarReference(name: "home", path: "~/home.ics")]
        #expect(try CalendarFiles.named("work", among: defined, zone: utc, environment: [:]).name == "work")
        #expect(try CalendarFiles.named(ics, among: defined, zone: utc, environment: [:]).name == ics)
        #expect(try CalendarFiles.named(ics, among: [], zone: utc, environment: [:]).warnings.count == 1)
    }

    @Test func aNameThatIsNeitherSaysWhichCalendarsTheRulesHave() throws {
        let folder = try TemporaryDirectory("trackee-rules-")
        let defined = [CalendarReference(name: "work", path: "/nowhere/work.ics"), CalendarReference(name: "home", path: "h.ics")]
        func refusal(_ name: String, among defined: [CalendarReference], environment: [String: String] = [:]) -> String? {
            let error = #expect(throws: Refusal.self) {
                try CalendarFiles.named(name, among: defined, zone: utc, environment: environment)
            }
            return error?.message
        }
        #expect(refusal("wrok", among: defined)
                    == #"wrok: no such calendar file or folder, and no calendar of that name in the rules (calendars: "work", "home")"#)
        #expect(refusal("wrok", among: []) == "wrok: no such calendar file or folder, and no calendar of that name in the rules")
        // A path, or a calendar of the rules, says what is wrong with it.
        #expect(refusal("\(folder.path)/x.ics", among: defined) == "\(folder.path)/x.ics: no such calendar file or folder")
        #expect(refusal("work", among: defined) == "/nowhere/work.ics: no such calendar file or folder")
        // `~` in the rules' path is the home folder.
        #expect(refusal("home", among: [CalendarReference(name: "home", path: "~/h.ics")], environment: ["HOME": "/home/ana"])
                    == "/home/ana/h.ics: no such calendar file or folder")
    }
}

@Suite struct MissingProjectTests {
    private let ruleSet = Automation.load([RuleFile(path: "rules.yaml", text: """
        rules:
          - id: docs
            when: {at: "09:00"}
            do: [{start: {project: Dcos}}]
          - id: mail
            when: {at: "10:00"}
            do: [{start: {project: Mail}}]
          - id: off
            enabled: false
            when: {at: "11:00"}
            do: [{start: {project: Gone}}]
          - id: templated
            when: {focus: deep}
            do: [{start: {project: "{{trigger.mode}}"}}]
        """)]).automation.ruleSet

    @Test func eachEnabledRuleStartingAProjectTheStoreLacks() {
        let warnings = ruleSet.missingProjectWarnings(createProjects: .ask) { ["Docs", "Mail"] }
        #expect(warnings == [
            #"rules.yaml:4:28: rule "docs": do[0].start.project: no project "Dcos"; did you mean "Docs"?; "#
                + "when the rule fires, its start is refused (create_projects: ask); "
                + #"create the project with `trackee projects add "Dcos"`, or set create_projects: always"#,
        ])
        let none = ruleSet.missingProjectWarnings(createProjects: .never) { [] }
        #expect(none.count == 2)
        #expect(none[1] == #"rules.yaml:7:28: rule "mail": do[0].start.project: no project "Mail"; "#
                    + "when the rule fires, its start is refused (create_projects: never); "
                    + #"create the project with `trackee projects add "Mail"`, or set create_projects: always"#)
    }

    @Test func nothingUnderAlwaysOrWhenTheStoreCannotBeRead() {
        var asked = 0
        #expect(ruleSet.missingProjectWarnings(createProjects: .always) { asked += 1; return [] } == [])
        #expect(asked == 0)
        #expect(ruleSet.missingProjectWarnings(createProjects: .ask) { asked += 1; return nil } == [])
        #expect(asked == 1)
        let quiet = Automation.load([RuleFile(path: "r.yaml", text: "rules: [{id: s, when: {at: \"09:00\"}, do: [stop]}]")])
        #expect(quiet.automation.ruleSet.missingProjectWarnings(createProjects: .ask) { asked += 1; return [] } == [])
        #expect(asked == 1)
    }
}

@Suite struct UntimedKindsTests {
    @Test func theEnabledRulesDeskKindsEachOnceInTheirOrder() {
        let automation = Automation.load([RuleFile(path: "rules.yaml", text: """
            rules:
              - id: nine
                when: {at: "09:00"}
                do: [stop]
              - id: desk
                when:
                  - session: locked
                  - idle: {for: 10m}
                  - session: unlocked
                do: [stop]
              - id: off
                enabled: false
                when: {sleep: shutdown}
                do: [stop]
              - id: more
                when: [{power: ac}, {idle: ended}, {device: {usb: "17EF:30B4"}}]
                do: [stop]
            """)]).automation
        #expect(automation.untimedKinds == ["session", "idle", "power", "device"])
        let timed = Automation.load([RuleFile(path: "r.yaml", text: "rules: [{id: s, when: {at: \"09:00\"}, do: [stop]}]")])
        #expect(timed.automation.untimedKinds == [])
    }
}
