/// A signal received on a bus: who sent it, from which object, and what
/// it carried.
public struct DBusSignal: Equatable, Sendable {
    /// The sender's unique bus name, such as `:1.42`.
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]

    public init(sender: String, path: String, interface: String, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}
