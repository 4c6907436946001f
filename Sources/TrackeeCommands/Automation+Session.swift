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
    /// The rule files (`paths`, else the default ones) read and checked,
    /// with the calendars they name when `calendars`
    /// (``Automation/read(ruleFiles:environment:zone:calendars:)``).
    func loadRules(_ paths: [String], calendars: Bool = true) -> LoadedRules {
        Automation.read(ruleFiles: paths, environment: environment, zone: zone, calendars: calendars)
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

    /// Whether a rule may create a project it names (``CreateProjects/forRules``).
    var rulesNewProjects: NewProjects { settings.createProjects.forRules }
}
