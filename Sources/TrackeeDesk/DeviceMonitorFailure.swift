/// Why the device monitor cannot watch, in one sentence, such as the
/// kernel's uevent socket refused in a sandbox.
public struct DeviceMonitorFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var sentence: String

    public init(_ sentence: String) {
        self.sentence = sentence
    }

    public var description: String { sentence }
}
