import TrackeeCore

/// The kinds of name an ``EntryFilter`` holds, spelled as their options.
public enum FilterKind: String, Sendable, Equatable {
    case project, client, tag
}

/// Why the store refused a request. Each description is one sentence a
/// person can act on.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The store's directory is missing (for an explicit `--store` path).
    case directoryMissing(path: String, directory: String)
    /// The directory or file cannot be created or written.
    case notWritable(path: String, reason: String)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// SQLite reports the file as damaged.
    case corrupt(path: String, detail: String)
    /// The database was written by a newer trackee.
    case tooNew(path: String, migration: String)
    case unknownEntry(Int64)
    case endBeforeStart(start: Instant, end: Instant)
    case ambiguousProject(name: String, clients: [String])
    case unknownProject(String)
    /// A project the write would have created, under ``NewProjects/refuse``;
    /// `nearest` is the existing project closest to the name.
    case noSuchProject(name: String, client: String?, nearest: String?)
    /// A start earlier than the running timer's, which it would end.
    case startBeforeRunning(start: Instant, running: Instant)
    case unknownClient(String)
    /// A `--project`, `--client` or `--tag` filter names nothing stored.
    case unknownFilterName(kind: FilterKind, name: String, nearest: String?)
    /// `continue` without an entry id, and no entry yet.
    case nothingToContinue
    case clientNeedsProject
    case nameTaken(kind: String, name: String)
    case emptyName(kind: String)
    case invalidTag(String)
    case needsConfirmation(kind: String, name: String, entries: Int)
    case nothingToUndo
    case unknownPushTarget(String)
    /// The step labelled `step` cannot be undone: `reason`.
    case undoConflict(step: String, reason: String)
    case noRunningTimer
    case editRunningEnd(Int64)
    case startAfterNow(start: Instant, now: Instant)
    case stopAfterNow(end: Instant, now: Instant)
    case database(path: String, message: String)
    /// `tokens add` with a name a token (even a revoked one) has.
    case tokenExists(String)
    /// A token name outside 1–64 of `A-Z a-z 0-9 . _ -`.
    case invalidTokenName(String)
    /// A name no token has.
    case unknownToken(String)
    /// A sign-in on the web page with a token revoked since it was checked.
    case tokenRevoked(String)
    /// The store joined the hub under one device name; the settings now
    /// give another.
    case hubDeviceRenamed(joined: String, settings: String)
    /// A pull before the store has joined the hub.
    case hubNotJoined
    /// `hub resolve` with a number no open conflict has.
    case unknownConflict(Int64)

    public var description: String {
        switch self {
        case let .directoryMissing(path, directory):
            return "cannot open store \(path): directory \(directory) does not exist; create it or choose another --store"
        case let .notWritable(path, reason):
            return "cannot write store \(path): \(reason)"
        case let .notADatabase(path):
            return "\(path) is not a trackee store (not an SQLite database); it was left untouched — choose another --store"
        case let .corrupt(path, detail):
            return "store \(path) is damaged (\(detail)); it was left untouched — restore it from a backup or choose another --store"
        case let .tooNew(path, migration):
            return "store \(path) was written by a newer trackee (migration \(migration)); upgrade trackee"
        case let .unknownEntry(id):
            return "no entry with id \(id); `trackee log` lists entry ids"
        case let .endBeforeStart(start, end):
            return "end \(Zone.local().iso8601(end)) is before start \(Zone.local().iso8601(start)); give an end after the start"
        case let .ambiguousProject(name, clients):
            let list = clients.map { "\"\($0)\"" }.joined(separator: ", ")
            return "project \"\(name)\" exists under several clients (\(list)); add --client to choose one"
        case let .unknownProject(name):
            return "no project named \"\(name)\"; `trackee projects` lists them"
        case let .noSuchProject(name, client, nearest):
            let under = client.map { " under client \"\($0)\"" } ?? ""
            return "no project \"\(name)\"\(under)" + (nearest.map { "; did you mean \"\($0)\"?" } ?? "")
        case let .startBeforeRunning(start, running):
            return "the new start \(Zone.local().iso8601(start)) is before the running timer's start \(Zone.local().iso8601(running)); "
                + "give a later --at, or `trackee stop` it first and add the earlier time with `trackee add`"
        case let .unknownClient(name):
            return "no client named \"\(name)\"; `trackee clients` lists them"
        case let .unknownFilterName(kind, name, near):
            let what = kind == .tag ? "is on no entry" : "names no \(kind.rawValue)"
            let hint = near.map { "did you mean \"\($0)\"?" } ?? "`trackee \(kind.rawValue)s` lists them"
            return "--\(kind.rawValue) \"\(name)\" \(what); \(hint)"
        case .nothingToContinue:
            return "nothing to continue: no entry yet; `trackee start` begins one"
        case .clientNeedsProject:
            return "--client needs --project: entries belong to a project, and the project to the client"
        case let .nameTaken(kind, name):
            return "a \(kind) named \"\(name)\" already exists; choose another name"
        case let .emptyName(kind):
            return "a \(kind) name cannot be empty"
        case let .invalidTag(tag):
            return "tag \"\(tag)\" contains a comma; tags are separated by commas, so use one --tag per tag"
        case let .needsConfirmation(kind, name, entries):
            return "deleting \(kind) \"\(name)\" would delete \(entries) \(entries == 1 ? "entry" : "entries"); run again with --yes to delete them (`trackee undo` restores them)"
        case .nothingToUndo:
            return "nothing to undo: every change the journal holds is undone already"
        case let .unknownPushTarget(name):
            return "no sync target named \"\(name)\"; targets are the names under sync: in the settings file"
        case let .undoConflict(step, reason):
            return "cannot undo \"\(step)\": \(reason); nothing changed"
        case let .editRunningEnd(id):
            return "entry \(id) is the running timer; end it with `trackee stop --at TIME`"
        case let .startAfterNow(start, _):
            return "a timer cannot start in the future (\(Zone.local().iso8601(start))); give a start time before now"
        case let .stopAfterNow(end, _):
            return "a timer cannot stop in the future (\(Zone.local().iso8601(end))); give a stop time before now"
        case .noRunningTimer:
            return "no timer is running; `trackee start` starts one"
        case let .database(path, message):
            return "store \(path): \(message)"
        case let .tokenExists(name):
            return "a token named \"\(name)\" exists already (revoked tokens keep their names); choose another name"
        case let .invalidTokenName(name):
            return "token name \"\(name)\" is not 1 to 64 letters, digits, dots, underscores or hyphens; choose a name such as phone or home-assistant"
        case let .unknownToken(name):
            return "no token named \"\(name)\"; `trackee tokens list` lists them"
        case let .tokenRevoked(name):
            return "token \"\(name)\" is revoked; it cannot sign in"
        case let .hubDeviceRenamed(joined, settings):
            return "this store joined the hub as device \(joined), and the settings now name it \(settings); "
                + "set hub.device back to \(joined) (the ids of its rows carry that device's number)"
        case .hubNotJoined:
            return "this store has not joined the hub yet"
        case let .unknownConflict(id):
            return "no open conflict is numbered \(id); trackee hub conflicts lists them"
        }
    }
}
