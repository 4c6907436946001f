import ArgumentParser
import Foundation
import Logging
import TrackeeAutomation
import TrackeeCore
import TrackeeRules
import TrackeeStore

/// `--rules`, shared by the commands that read rule files.
struct RulesOption: ParsableArguments {
    @Option(name: .customLong("rules"), help: "A rule file to use instead of rules.yaml and rules.d/*.yaml; repeat for several.")
    var paths: [String] = []
}

extension Session {
    /// Reads and checks the rule files and, with `calendars`, reads the
    /// calendars they name. Errors are positioned sentences; the rules
    /// without errors still load, and a calendar that cannot be read is
    /// left out. `warnings` are what the calendars read were read past
    /// (``CalendarFiles/warningLines(_:names:)``) and `warningCount` how
    /// many there are in all.
    func loadRules(_ paths: [String], calendars: Bool = true)
        -> (automation: Automation, errors: [String], warnings: [String], warningCount: Int)
    {
        let read = RuleFiles.read(RuleFiles.paths(explicit: paths, environment: environment))
        let loaded = Automation.load(read.files)
        var errors = read.errors + loaded.errors.map(\.description)
        guard calendars, !loaded.automation.ruleSet.calendars.isEmpty else { return (loaded.automation, errors, [], 0) }
        let sources = loaded.automation.ruleSet.calendars
        let calendars = CalendarFiles.read(sources, zone: zone, environment: environment)
        errors += calendars.problems.map(\.description)
        return (Automation(loaded.automation.ruleSet, calendars: calendars.calendars), errors,
                CalendarFiles.warningLines(calendars.calendars, names: sources.map(\.name)),
                calendars.calendars.values.reduce(0) { $0 + $1.warnings.count })
    }

    /// Rules for a command that acts on them: any error stops it, since a
    /// one-shot command has no later moment to report it (exit 78). What
    /// the calendars were read past is written to stderr, and the command
    /// goes on.
    func strictRules(_ option: RulesOption, calendars: Bool = true) throws -> Automation {
        let loaded = loadRules(option.paths, calendars: calendars)
        guard loaded.errors.isEmpty else {
            for error in loaded.errors.dropLast() { writeAll(2, "trackee: \(error)\n") }
            throw CommandFailure.config(loaded.errors.last!)
        }
        for warning in loaded.warnings { writeAll(2, "trackee: \(warning)\n") }
        return loaded.automation
    }

    /// The store, when there is one: a command that only looks (a check, a
    /// look ahead, a dry run) creates none.
    func existingStore() throws -> Store? {
        let location = StoreLocation.resolve(explicit: common.store, environment: environment)
        guard FileManager.default.fileExists(atPath: location.path) else { return nil }
        return try Store(location: location)
    }

    /// The clients and projects of the store, read without writing it,
    /// for a throwaway store to start with; none when there is no store.
    func catalog() throws -> Catalog {
        try Store.catalog(at: StoreLocation.resolve(explicit: common.store, environment: environment).path)
    }

    /// The store as timed runtimes read it (a `running_for` edge needs the
    /// running timer), when there is one.
    func existingStoreState() throws -> TrackerState {
        TrackerState(try existingStore())
    }

    /// Warnings and errors of rule actions go to stderr.
    var logger: Logger {
        let environment = environment
        return Logger(label: "trackee") { StderrLogHandler(label: $0, environment: environment, level: .notice) }
    }

    func runner(_ store: Store, waitForPrograms: Bool = true, performSideEffects: Bool = true,
                batchTraces: Bool = false) -> Runner {
        Runner(store: store, zone: zone, environment: environment, logger: logger,
               waitForPrograms: waitForPrograms, performSideEffects: performSideEffects,
               newProjects: rulesNewProjects, keepTraces: settings.traces, batchTraces: batchTraces)
    }

    /// Whether a rule may create a project it names: only under
    /// `create_projects: always`, since no one is there to answer `ask`.
    var rulesNewProjects: NewProjects { settings.createProjects == .always ? .create : .refuse }

    /// One line per firing report.
    func describe(_ report: Runner.Report) -> String {
        let when = zone.iso8601(report.firing.time)
        switch report.status {
        case .fired(let results):
            let what = results.map { result -> String in
                guard let entry = result.entry else { return result.outcome.rawValue }
                return "\(result.outcome.rawValue) \(entry.project ?? "(no project)")"
            }
            let created = results.flatMap(\.created)
            return "fired \(report.firing.rule) at \(when)" + (what.isEmpty ? "" : ": " + what.joined(separator: ", "))
                + (created.isEmpty ? "" : " (created \(created.joined(separator: ", ")))")
        case .alreadyFired:
            return "already fired \(report.firing.rule) at \(when)"
        case .refused(let message):
            return "refused \(report.firing.rule) at \(when): \(message)"
        case .failed(let message):
            return "failed \(report.firing.rule) at \(when): \(message)"
        }
    }

    /// A firing on a throwaway store, as `simulate` and `feed --dry-run`
    /// print it: each intent's outcome, and what `notify` and `run` would
    /// do (they are not done).
    func dryRunLines(_ report: Runner.Report) -> [String] {
        let when = zone.iso8601(report.firing.time)
        guard case .fired(let all) = report.status else {
            return ["\(when)  \(report.firing.rule)  \(describe(report))"]
        }
        var results = all[...]
        var lines: [String] = []
        for action in report.firing.actions {
            switch action {
            case .intent:
                guard let result = results.popFirst() else { continue }
                let what = result.entry.map { label($0) } ?? "nothing running"
                lines.append("\(when)  \(report.firing.rule)  \(result.outcome.rawValue) \(what)")
            case .notify(let title, let body):
                lines.append("\(when)  \(report.firing.rule)  would notify: \(title)" + (body.map { ": \($0)" } ?? ""))
            case .run(let argv, _):
                lines.append("\(when)  \(report.firing.rule)  would run: \(argv.map(Trackee.Simulate.quoted).joined(separator: " "))")
            }
        }
        return lines
    }
}
