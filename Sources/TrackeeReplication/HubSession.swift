import TrackeeCore
import TrackeeStore

/// One connection to the hub, for one device's pushes and pulls: the
/// libpq one (``LibpqHubSession``), or a test's hub in memory.
public protocol HubSession: AnyObject {
    /// Registers `device` for the store `store` (once), and returns its
    /// number in the timeline it holds: `timeline` nil for this person's
    /// own, else the person whose timeline the store keeps a copy of (a
    /// copy is named `DEVICE.OWNER`). Refused when another store holds
    /// the name, when the person's device limit is reached, or when that
    /// person does not share their timeline with this one.
    func register(device: String, store: String, timeline: String?) throws -> Int64
    /// The hub's clock, in milliseconds since 1970.
    func now() throws -> Int64
    /// Appends changes made on `device`; those the hub holds already (a
    /// push again after a kill) are passed over, and one whose sequence
    /// the hub holds with other content refuses the whole push.
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
    /// From now on, hears of every push to this person's own timeline
    /// (`LISTEN` on their channel, which names no one).
    func listen() throws
    /// Waits up to `milliseconds` (0: only looks) for a push to this
    /// person's timeline made over another connection; true when one
    /// came. `device` is this connection's device (the hub tells pushes
    /// apart by connection, and no longer needs it).
    func waitForPush(milliseconds: Int32, excluding device: String) throws -> Bool
}
