/// Text that ``CalendarSpec/init(_:)`` cannot read as a calendar expression.
///
/// The description names the expression and its bad part in one sentence,
/// and ``offset`` says where that part starts, for pointing at it:
///
///     do { _ = try CalendarSpec("Mon..Fry 09:00") } catch {
///         error.description  // invalid calendar expression "Mon..Fry 09:00": unknown weekday "Fry"
///         error.offset       // 5
///     }
public struct CalendarSpecError: Error, Equatable, CustomStringConvertible {
    /// The expression as given.
    public let input: String
    /// Characters from the start of ``input`` to the bad part.
    public let offset: Int
    /// What is wrong, such as `hour 24 is out of range 0..23`.
    public let reason: String

    public init(input: String, offset: Int, reason: String) {
        self.input = input
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "invalid calendar expression \"\(input)\": \(reason)" }
}
