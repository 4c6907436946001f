import Foundation

/// A scratch directory under the system's temporary one, removed when
/// released.
public final class TemporaryDirectory {
    public let path: String

    /// `prefix` begins the directory's name (a UUID follows).
    public init(_ prefix: String = "trackee-") throws {
        path = NSTemporaryDirectory() + prefix + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `data` to `name` inside, creating the folders on the way.
    public func write(_ name: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Writes `text` to `name` inside; returns the file's path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(name, Data(text.utf8))
        return path + "/" + name
    }

    /// The names of what is inside, sorted.
    public var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
