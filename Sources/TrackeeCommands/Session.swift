import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeSettings
import TrackeeStore

/// What a command runs with: the clock, the zone, the settings, the store
/// and where output goes. Built once per process.
struct Session {
    let common: CommonOptions
    let environment: [String: String]
    let now: Instant
    let zone: Zone
    let settings: Settings
    let out: Output

    /// The time now: `now` when TRACKEE_NOW pins it, else the clock (for
    /// commands that run long, such as a feed from a pipe).
    func currentTime() -> Instant {
        if let fake = environment["TRACKEE_NOW"], !fake.isEmpty { return now }
        return SystemClock.now()
    }

    init(_ common: CommonOptions) throws {
        self.common = common
        environment = ProcessEnvironment.current()
        zone = Zone.local()
        if let fake = environment["TRACKEE_NOW"], !fake.isEmpty {
            do {
                now = try TimeExpression.parse(fake, now: SystemClock.now(), zone: zone)
            } catch {
                throw CommandFailure.usage("TRACKEE_NOW: \(error)")
            }
        } else {
            now = SystemClock.now()
        }
        do {
            settings = try Settings.load(environment: environment, zone: zone)
        } catch let refusal as Refusal {
            throw CommandFailure.config(refusal.message)
        }
        out = Output(environment: environment, json: common.json)
    }

    func openStore() throws -> Store {
        let store = try Store(location: StoreLocation.resolve(explicit: common.store, environment: environment))
        // The outbox's triggers queue entries for the targets the store
        // knows: it learns the settings' before any entry is written.
        // Without a sync: section nothing is read (targets a store still
        // has are dropped by the sync commands).
        if !settings.sync.isEmpty { try store.registerPushTargets(settings.sync.map(\.record)) }
        return store
    }

    /// The store of `person`'s timeline, which they share through the
    /// hub (`hub sync` keeps the copy); this device's own store for nil.
    func openStore(person: String?) throws -> Store {
        guard let person else { return try openStore() }
        let own = StoreLocation.resolve(explicit: common.store, environment: environment)
        guard own.people.contains(person) else {
            throw CommandFailure(
                message: "--person \(person): no copy of \(person)'s timeline is here; \(person) shares it with "
                    + "`trackee hub grant YOU --read`, and then `trackee hub sync` brings it", status: 1)
        }
        return try Store(location: own.person(person))
    }

    /// Parses a user-typed time; `option` names the flag in the error.
    func time(_ text: String, option: String) throws -> Instant {
        do {
            return try TimeExpression.parse(text, now: now, zone: zone)
        } catch {
            throw CommandFailure.usage("\(option): \(error)")
        }
    }

    /// Runs a command body, turning failures into one line on stderr and
    /// the documented exit status.
    static func run(_ common: CommonOptions, _ body: (Session) throws -> Void) throws {
        do {
            let session = try Session(common)
            try body(session)
        } catch let failure as CommandFailure {
            failure.report()
            throw ExitCode(failure.status)
        } catch let error as StoreError {
            let failure = CommandFailure(error)
            failure.report()
            throw ExitCode(failure.status)
        }
    }
}

/// A failure with its exit status. The statuses are documented in
/// trackee(1): 1 refused, 2 store unusable, 64 usage, 66 input missing,
/// 78 configuration.
struct CommandFailure: Error {
    var message: String
    var status: Int32

    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 64) }
    static func refused(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 1) }
    static func config(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 78) }
    /// An input file named on the command line that cannot be read (EX_NOINPUT).
    static func noInput(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 66) }

    init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    init(_ error: StoreError) {
        message = error.description
        switch error {
        case .directoryMissing, .notWritable, .notADatabase, .corrupt, .tooNew, .database:
            status = 2
        case .unknownFilterName:
            // A filter is part of the command line; a typo in it is a
            // usage error, not a refusal.
            status = 64
        default:
            status = 1
        }
    }

    func report() {
        writeAll(2, "trackee: \(message)\n")
    }
}
