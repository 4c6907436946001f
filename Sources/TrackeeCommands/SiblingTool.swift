import Foundation

/// A helper executable installed next to `trackee` (`trackee-sync`,
/// `trackee-report`), which links what the static `trackee` must not.
enum SiblingTool {
    /// Where the environment variable `variable` names it, else `name` in
    /// the directory of this executable; `named` says which.
    static func path(_ name: String, variable: String) -> (path: String, named: Bool) {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty { return (path, true) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        return ((exe as NSString).deletingLastPathComponent + "/" + name, false)
    }

    /// Replaces this process with `arguments[0]` run with `arguments`.
    static func exec(_ arguments: [String]) throws -> Never {
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        execv(arguments[0], &pointers)
        throw CommandFailure.config("cannot run \(arguments[0]): \(String(cString: strerror(errno)))")
    }
}
