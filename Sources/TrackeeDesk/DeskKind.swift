import Glibc
import TrackeeCore

/// One kind of change at the desk: what it reports (its payload and its
/// event-line reader, a ``DeskReport`` in TrackeeCore) and where its
/// changes come from. ``all`` is the registry: event lines find their
/// kind by its name here, and ``DeskMonitor`` runs the watches.
///
/// A kind is this entry, its report's file in TrackeeCore, its watch here,
/// and its rule trigger in TrackeeRules (with its word in `TriggerKind.all`).
public struct DeskKind: Sendable {
    /// The report: its ``DeskReport/kindName`` names the kind.
    public let report: any DeskReport.Type
    /// The kind's own section of the settings file, if it has one; the
    /// watch finds what was read in ``DeskContext/settings``.
    public let settings: DeskKindSettings?
    public let watch: Watch

    /// Where a kind's changes come from.
    public enum Watch: Sendable {
        /// Alternatives on D-Bus, in the order they are tried: the first
        /// whose service is on its bus at start is used.
        case firstOf(@Sendable (DeskContext) -> [DeskWatchPlan])
        /// D-Bus watches, each run when its service is on its bus.
        case bus(@Sendable (DeskContext) -> [DeskWatchPlan])
        /// A watch on a thread of its own (udev's socket).
        case thread(@Sendable (DeskContext) -> any DeskThreadWatch)
    }

    public init(_ report: any DeskReport.Type, settings: DeskKindSettings? = nil, watch: Watch) {
        self.report = report
        self.settings = settings
        self.watch = watch
    }

    /// The kind as event lines' `type` and rule files name it.
    public var name: String { report.kindName }

    /// Every desk kind, in the order `trackee run`'s start line lists
    /// their watches.
    public static let all: [DeskKind] = [.idle, .session, .sleep, .network, .power, .device, .flip]

    /// The kind an event line's `type` names.
    public static func named(_ name: String) -> DeskKind? { all.first { $0.name == name } }
}

/// What the watches are made from: the environment (the buses' addresses,
/// `XDG_SESSION_ID`), how soon an idle watch that polls must report, the
/// kinds' settings, the store's cursors, and the log.
public struct DeskContext: Sendable {
    public var environment: [String: String]
    public var idleIntervalMilliseconds: Int
    public var settings: DeskSettings
    public var memory: DeskMemory
    public var log: DeskLog

    public init(environment: [String: String], idleIntervalMilliseconds: Int = 60_000, settings: DeskSettings = .init(),
                memory: DeskMemory = .none, log: @escaping DeskLog = { _, _ in }) {
        self.environment = environment
        self.idleIntervalMilliseconds = idleIntervalMilliseconds
        self.settings = settings
        self.memory = memory
        self.log = log
    }

    var sessionID: String? { environment["XDG_SESSION_ID"] }
    var uid: uid_t { getuid() }
}

extension DeskKind {
    /// GNOME Mutter's IdleMonitor and `org.freedesktop.ScreenSaver` go
    /// before logind, whose hint is coarser (it moves only when the
    /// desktop or logind's own timer sets it).
    static let idle = DeskKind(IdleReport.self, watch: .firstOf { context in
        [
            DeskWatchPlan(reports: "idle", bus: .session, serviceName: "org.gnome.Mutter.IdleMonitor") {
                MutterIdleWatch(intervalMilliseconds: UInt64(max(1, context.idleIntervalMilliseconds)))
            },
            DeskWatchPlan(reports: "idle", bus: .session, serviceName: "org.freedesktop.ScreenSaver") {
                ScreenSaverIdleWatch()
            },
            DeskWatchPlan(reports: "idle", bus: .system, serviceName: LoginSession.service) {
                LoginIdleWatch(sessionID: context.sessionID, uid: context.uid)
            },
        ]
    })
    static let session = DeskKind(SessionEdge.self, watch: .bus { context in
        [
            DeskWatchPlan(reports: "lock", bus: .system, serviceName: LoginSession.service) {
                SessionLockWatch(sessionID: context.sessionID, uid: context.uid)
            }
        ]
    })
    static let sleep = DeskKind(SleepEdge.self, watch: .bus { _ in
        [DeskWatchPlan(reports: "sleep", bus: .system, serviceName: LoginSession.service) { SleepWatch() }]
    })
    static let network = DeskKind(NetworkEdge.self, watch: .bus { _ in
        [DeskWatchPlan(reports: "network", bus: .system, serviceName: "org.freedesktop.NetworkManager") { NetworkWatch() }]
    })
    static let power = DeskKind(PowerEdge.self, watch: .bus { _ in
        [DeskWatchPlan(reports: "power", bus: .system, serviceName: "org.freedesktop.UPower") { PowerWatch() }]
    })
    static let device = DeskKind(DeviceEdge.self, watch: .thread { context in DeviceWatch(log: context.log) })
    /// The cube of the settings' `timeflip:`, through BlueZ; none without it.
    static let flip = DeskKind(FlipEdge.self, settings: TimeFlipSettings.section, watch: .bus { context in
        guard let cube = context.settings[FlipEdge.kindName, as: TimeFlipSettings.self] else { return [] }
        return [TimeFlipWatch.plan(cube, memory: context.memory, log: context.log)]
    })
}

extension DeskWatchPlan {
    /// The idle watches in the order they are tried (``DeskKind/Watch/firstOf(_:)``).
    public static func standardIdle(environment: [String: String], intervalMilliseconds: Int) -> [DeskWatchPlan] {
        let context = DeskContext(environment: environment, idleIntervalMilliseconds: intervalMilliseconds)
        return DeskKind.all.flatMap { kind -> [DeskWatchPlan] in
            guard case .firstOf(let plans) = kind.watch else { return [] }
            return plans(context)
        }
    }

    /// The other D-Bus watches, in the order the start line lists them.
    public static func standard(environment: [String: String], settings: DeskSettings = .init(),
                                memory: DeskMemory = .none, log: @escaping DeskLog = { _, _ in }) -> [DeskWatchPlan] {
        let context = DeskContext(environment: environment, settings: settings, memory: memory, log: log)
        return DeskKind.all.flatMap { kind -> [DeskWatchPlan] in
            guard case .bus(let plans) = kind.watch else { return [] }
            return plans(context)
        }
    }
}

/// Where a watch whose source numbers its own history (a cube's intervals)
/// finds how far the daemon has taken it, after a restart too: the store's
/// ``DeskCursor``s. The daemon moves a cursor once the rules a change fires
/// are committed (``DeskEdge/cursor``); `keep` moves it without a change,
/// for where a first connection starts the history.
public struct DeskMemory: Sendable {
    public var cursor: @Sendable (_ subject: String) -> DeskCursor?
    public var keep: @Sendable (DeskCursor) -> Void

    public init(cursor: @escaping @Sendable (String) -> DeskCursor?, keep: @escaping @Sendable (DeskCursor) -> Void) {
        self.cursor = cursor
        self.keep = keep
    }

    /// No store: every history is taken as seen at each start.
    public static let none = DeskMemory(cursor: { _ in nil }, keep: { _ in })
}

extension DeskKind {
    /// The watches of the kinds that have one (udev's devices).
    public static func standardThreadWatches(log: @escaping DeskLog) -> [any DeskThreadWatch] {
        let context = DeskContext(environment: [:], log: log)
        return DeskKind.all.compactMap { kind -> (any DeskThreadWatch)? in
            guard case .thread(let make) = kind.watch else { return nil }
            return make(context)
        }
    }
}
