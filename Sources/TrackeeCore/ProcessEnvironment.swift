#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's environment as a dictionary, read from `environ`
/// directly: Foundation's `ProcessInfo.environment` builds the same
/// dictionary at several times the cost, and every command reads it.
public enum ProcessEnvironment {
    /// This process's environment.
    public static func current() -> [String: String] {
        read(environ)
    }

    /// The `NAME=value` strings of a null-terminated list such as
    /// `environ`: the first of two equal names wins, as with getenv(3), and
    /// an entry without `=` is passed over.
    public static func read(_ entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var result: [String: String] = [:]
        var entry = entries
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let eq = text.firstIndex(of: "=") {
                let name = String(text[..<eq])
                if result[name] == nil { result[name] = String(text[text.index(after: eq)...]) }
            }
            entry += 1
        }
        return result
    }
}
