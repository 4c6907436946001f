/// A desk watch that is not a D-Bus watch, such as udev's netlink
/// monitor: it runs on a thread of its own and hands each change to the
/// desk monitor until stopped.
public protocol DeskThreadWatch: Sendable {
    /// What the start line calls it: `udev`.
    var name: String { get }
    /// What it gives, for the start line: `devices`.
    var reports: String { get }
    /// Starts its thread, which calls `yield` with each change. Throws,
    /// with a sentence the start line shows, when it cannot start (then
    /// the desk runs without it).
    func start(yield: @escaping @Sendable (DeskChange) -> Void) throws
    /// Ends its thread; nothing is yielded once it returns.
    func stop()
}
