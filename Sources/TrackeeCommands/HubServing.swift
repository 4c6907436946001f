import Logging
import ServiceLifecycle
import Synchronization
import TrackeeCore
import TrackeeStore

/// What the hub's commands need of replication (TrackeeReplication),
/// which only `trackee-daemon` links: libpq in `trackee` would cost every
/// one-shot command. `trackee-daemon` registers it before it parses the
/// command line; in `trackee` there is none, and `trackee hub init|sync|…`
/// becomes `trackee-daemon`.
public protocol HubReplicator: Sendable {
    /// As the hub's administrator (`settings.user`).
    func initialize(_ settings: HubSettings, password: String?) throws -> HubInitReport
    /// As the settings' role: what lets a person past the database.
    func check(_ settings: HubSettings, password: String?) throws -> HubCheckReport
    /// As the hub's administrator (`settings.user`).
    func limit(_ settings: HubSettings, password: String?, person: String, devices: Int) throws -> HubLimitReport
    /// This device's own timeline first, then the copies of those shared
    /// with it.
    func sync(
        store: Store, location: StoreLocation, settings: HubSettings, password: String?, batch: Int,
        progress: ((ReplicationReport) -> Void)?, now: @escaping () -> Instant
    ) throws -> [ReplicationReport]
    func share(_ settings: HubSettings, password: String?, with person: String, level: String?) throws
    func service(settings: HubSettings, password: String?, store: Store, logger: Logger) -> any Service
}

/// Where `trackee-daemon` registers the hub's replication.
public enum HubServing {
    private static let replicator = Mutex<(any HubReplicator)?>(nil)

    public static func register(_ made: any HubReplicator) {
        replicator.withLock { $0 = made }
    }

    static var registered: (any HubReplicator)? { replicator.withLock { $0 } }
}
