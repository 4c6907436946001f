import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrackeeCore

/// Where the store lives: `--store`, then `TRACKEE_STORE`, then
/// `$XDG_DATA_HOME/trackee/trackee.sqlite3`, then
/// `~/.local/share/trackee/trackee.sqlite3`.
public struct StoreLocation: Sendable, Equatable {
    public var path: String
    /// True for the default location, whose directories trackee creates.
    /// An explicit path must name an existing directory: a typo there
    /// should be an error, not a new store somewhere unexpected.
    public var isDefault: Bool

    public init(path: String, isDefault: Bool) {
        self.path = path
        self.isDefault = isDefault
    }

    public static func resolve(explicit: String?, environment: [String: String]) -> StoreLocation {
        if let explicit, !explicit.isEmpty { return StoreLocation(path: explicit, isDefault: false) }
        if let env = environment["TRACKEE_STORE"], !env.isEmpty { return StoreLocation(path: env, isDefault: false) }
        return StoreLocation(path: XDGDirectories.data(environment: environment) + "/trackee.sqlite3", isDefault: true)
    }

    /// Where the copy of another person's timeline is kept: `people/NAME.sqlite3`
    /// beside this store.
    public func person(_ name: String) -> StoreLocation {
        StoreLocation(path: directory + "/people/" + name + ".sqlite3", isDefault: true)
    }

    /// The people whose timelines have a copy beside this store.
    public var people: [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory + "/people") else { return [] }
        return names.filter { $0.hasSuffix(".sqlite3") }.map { String($0.dropLast(".sqlite3".count)) }.sorted()
    }

    /// Removes the copy of `name`'s timeline (and its log files).
    public func forget(person name: String) {
        let path = person(name).path
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// Makes sure the directory exists (creating the default one 0700) and
    /// that the file exists with mode 0600, without touching an existing file.
    func prepare() throws(StoreError) {
        if isDirectory(directory) == false {
            guard isDefault else { throw .directoryMissing(path: path, directory: directory) }
            try makeDirectories(directory)
        }
        if access(path, F_OK) == 0 { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
            return
        }
        let err = errno
        // Another process created it between our check and our open.
        if err == EEXIST { return }
        // ENOENT with the directory present: a file system such as /proc
        // that takes no new files.
        let reason = err == ENOENT ? "\(directory) does not accept new files" : describe(errno: err, for: directory)
        throw .notWritable(path: path, reason: reason)
    }

    private func isDirectory(_ p: String) -> Bool? {
        var st = stat()
        guard stat(p, &st) == 0 else { return false }
        return (st.st_mode & S_IFMT) == S_IFDIR
    }

    private func makeDirectories(_ dir: String) throws(StoreError) {
        var prefix = ""
        for part in dir.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            if isDirectory(prefix) == true { continue }
            // Only the store's own folder is private; parents like
            // ~/.local/share follow the user's umask as other tools expect.
            let mode: mode_t = prefix == dir ? 0o700 : 0o755
            if mkdir(prefix, mode) != 0 && errno != EEXIST {
                throw .notWritable(path: path, reason: describe(errno: errno, for: prefix))
            }
        }
    }
}

func describe(errno err: Int32, for path: String) -> String {
    switch err {
    case EACCES, EPERM: return "permission denied in \(path)"
    case EROFS: return "\(path) is on a read-only file system"
    case ENOENT: return "\(path) does not exist"
    case ENOSPC: return "no space left on the device holding \(path)"
    default: return "\(path): \(String(cString: strerror(err)))"
    }
}
