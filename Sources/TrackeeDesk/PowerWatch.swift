import TrackeeCore

/// Which supply the machine runs on, from UPower's `OnBattery`.
public struct PowerWatch: DeskWatch {
    public let name = "UPower"
    public let bus = DeskBus.system
    public let serviceName = "org.freedesktop.UPower"
    static let path = "/org/freedesktop/UPower"
    private var onBattery: Bool?

    public init() {}

    public mutating func attach(_ connection: DBusConnection, now: Instant) throws -> [DeskChange] {
        try connection.addMatch(PropertiesChange.matchRule(sender: serviceName, path: Self.path, interface: serviceName))
        let value = try connection.property(destination: serviceName, path: Self.path, interface: serviceName,
                                            name: "OnBattery")
        guard case .bool(let onBattery) = value else {
            throw DBusFailure("UPower's OnBattery is \(value.signature), not a boolean.")
        }
        let known = self.onBattery
        self.onBattery = onBattery
        guard let known, known != onBattery else { return [] }
        return [change(onBattery, now)]
    }

    public mutating func take(_ signal: DBusSignal, connection: DBusConnection, now: Instant) -> [DeskChange] {
        guard onBattery != nil, let change = PropertiesChange(signal, path: Self.path), change.interface == serviceName,
              case .bool(let onBattery) = change.changed["OnBattery"], onBattery != self.onBattery
        else { return [] }
        self.onBattery = onBattery
        return [self.change(onBattery, now)]
    }

    private func change(_ onBattery: Bool, _ now: Instant) -> DeskChange {
        DeskChange(.power(onBattery ? .battery : .ac), time: now)
    }
}
