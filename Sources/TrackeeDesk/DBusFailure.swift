/// Why a bus could not be reached or a call failed, in one sentence.
public struct DBusFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The D-Bus error name when the bus or the peer answered with one,
    /// such as `org.freedesktop.DBus.Error.ServiceUnknown`.
    public var errorName: String?
    public var sentence: String

    public init(errorName: String? = nil, _ sentence: String) {
        self.errorName = errorName
        self.sentence = sentence
    }

    public var description: String { sentence }
}
