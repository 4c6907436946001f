/// A change of the machine at the desk, as a source reports it: idleness,
/// the screen lock, sleep, the network, the power supply, a device.
///
/// D-Bus watchers, the udev netlink monitor and event lines (`trackee run`'s
/// stdin, `simulate`'s events files, a `swayidle` recipe) all produce these;
/// `DeskSource` in TrackeeAutomation turns them into the trigger events of
/// the `idle`, `session`, `sleep`, `network`, `power` and `device` kinds.
/// A source reports an edge once: a repeated signal with the same state is
/// not a second change.
public enum DeskEvent: Sendable, Equatable {
    /// The user went idle at `since` (reported when the source noticed, which
    /// may be later: Mutter's watch fires after its interval).
    case idle(since: Instant)
    /// The user is active again; `since` is when the idleness began, when the
    /// source knows it.
    case active(since: Instant?)
    case session(SessionState)
    case sleep(SleepState)
    case network(NetworkChange)
    case power(PowerState)
    case device(DeviceChange)

    /// The trigger kind this change feeds, as rule files name it.
    public var kindName: String {
        switch self {
        case .idle, .active: "idle"
        case .session: "session"
        case .sleep: "sleep"
        case .network: "network"
        case .power: "power"
        case .device: "device"
        }
    }
}

/// The screen lock of the user's session.
public enum SessionState: String, Sendable, Equatable, CaseIterable, Codable {
    case locked, unlocked
}

/// The machine about to sleep or shut down, or back from sleep.
public enum SleepState: String, Sendable, Equatable, CaseIterable, Codable {
    case suspend, resume, shutdown
}

/// Which supply the machine runs on.
public enum PowerState: String, Sendable, Equatable, CaseIterable, Codable {
    case battery, ac
}

/// A network connection that came up or went down.
public struct NetworkChange: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Equatable, CaseIterable, Codable {
        case connected, disconnected
    }

    public var state: State
    /// The connection's name (NetworkManager's `Id`, such as "ACME VPN").
    public var connection: String
    /// The Wi-Fi network's SSID; nil for other connections.
    public var ssid: String?
    /// NetworkManager's connection type: `802-11-wireless`, `802-3-ethernet`,
    /// `vpn`, `wireguard`; nil when unknown.
    public var connectionType: String?
    /// The connection's UUID, when the source gives one: it tells two
    /// connections with the same name apart.
    public var uuid: String?

    public init(state: State, connection: String, ssid: String? = nil, connectionType: String? = nil, uuid: String? = nil) {
        self.state = state
        self.connection = connection
        self.ssid = ssid
        self.connectionType = connectionType
        self.uuid = uuid
    }
}

/// A device added or removed, as udev reports it.
public struct DeviceChange: Sendable, Equatable, Codable {
    public enum Action: String, Sendable, Equatable, CaseIterable, Codable {
        case added, removed
    }

    public var action: Action
    /// The kernel's path of the device, such as `/devices/pci0000:00/…/1-2`.
    public var devpath: String
    /// `usb`, `block`, `input`, `net`, …
    public var subsystem: String
    /// USB vendor and product ids as four lower-case hex digits each.
    public var vendor: String?
    public var product: String?
    public var serial: String?
    /// What the device calls itself (USB `product` string, or the model).
    public var name: String?

    public init(action: Action, devpath: String, subsystem: String, vendor: String? = nil, product: String? = nil,
                serial: String? = nil, name: String? = nil) {
        self.action = action
        self.devpath = devpath
        self.subsystem = subsystem
        self.vendor = vendor
        self.product = product
        self.serial = serial
        self.name = name
    }

    /// `vendor:product`, such as `17ef:30b4`, when both are known.
    public var usbID: String? {
        guard let vendor, let product else { return nil }
        return "\(vendor):\(product)"
    }
}
