/// Why what a person gave cannot be used, as one sentence that names it: a
/// setting (with its file and line), a calendar's name, a file to write.
/// The command prints the sentence as it is, with its own exit status.
///
/// One type for every such sentence, without `Equatable` or
/// `CustomStringConvertible`: each conformance is a record the Swift
/// runtime scans at every dynamic cast, and every command casts at start.
public struct Refusal: Error, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
