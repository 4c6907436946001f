import TrackeeTestSupport

extension JSONValue {
    /// A number, whole or not: the clients' times in seconds.
    var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }
}
