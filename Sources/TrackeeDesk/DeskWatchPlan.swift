/// A D-Bus watch the desk monitor may run: what it reports, where, and
/// how to make it on its bus's thread (a watch is not `Sendable`: the
/// thread that owns the connection makes and keeps it).
public struct DeskWatchPlan: Sendable {
    /// What the start line says it gives: `idle`, `lock`, `sleep`,
    /// `power`, `network`.
    public var reports: String
    public var bus: DeskBus
    /// The well-known name whose presence decides, for the idle watches,
    /// which one is used.
    public var serviceName: String
    public var make: @Sendable () -> any DeskWatch

    public init(reports: String, bus: DeskBus, serviceName: String, make: @escaping @Sendable () -> any DeskWatch) {
        self.reports = reports
        self.bus = bus
        self.serviceName = serviceName
        self.make = make
    }
}
