import TrackeeCore
import TrackeeStore

/// One connection to the hub, for one device's pushes and pulls: the
/// libpq one (``LibpqHubSession``), or a test's hub in memory.
public protocol HubSession: AnyObject {
    /// Registers `device` for the store `store` (once), and returns its
    /// number; refused when another store holds the name.
    func register(device: String, store: String) throws -> Int64
    /// The hub's clock, in milliseconds since 1970.
    func now() throws -> Int64
    /// Appends changes made on `device`; those the hub holds already (a
    /// push again after a kill) are passed over.
    /// `person` is whose timeline they are (nil: this role's own); the
    /// hub refuses a change to a timeline this role may not write.
    func push(device: String, person: String?, _ changes: [HubOutgoingChange]) throws
    /// Up to `limit` changes other devices made to `person`'s timeline
    /// (nil: this role's own), after hub change `cursor`.
    func pull(after cursor: Int64, person: String?, excluding device: String, limit: Int) throws -> [HubIncomingChange]
    /// Whose timelines this role may read (`read`) or also write
    /// (`write`), by person; its own is not among them.
    func sharedWithMe() throws -> [String: String]
    /// Lets `person` read this role's timeline, or also write it; nil
    /// takes that back.
    func share(with person: String, level: String?) throws
    /// The role the hub knows this connection as: the person.
    func person() throws -> String
    /// From now on, hears of every push to the hub (`LISTEN`).
    func listen() throws
    /// Waits up to `milliseconds` for a push by a device other than
    /// `device`; true when one came.
    func waitForPush(milliseconds: Int32, excluding device: String) throws -> Bool
}
