import Foundation

extension Sandbox {
    /// Writes `text` to a file of the sandbox (`relative` to its root),
    /// creating the folders on the way; returns the file's path.
    @discardableResult
    public func write(_ text: String, to relative: String) throws -> String {
        try write(bytes: Array(text.utf8), to: relative)
    }

    @discardableResult
    public func write(bytes: [UInt8], to relative: String) throws -> String {
        let file = path(relative)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}

/// A JSON literal, for comparing whole documents.
public func parsedJSON(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
}
