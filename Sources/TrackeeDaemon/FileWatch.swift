import Foundation
import Glibc
import Logging

/// Changes to files in watched folders, from inotify: rule files and
/// calendars. Folders can be added while it runs (a reload may name a new
/// calendar). A burst of events on one path (an editor saving, vdirsyncer
/// writing) comes out as one change after ``quiet`` (100 ms) of silence.
final class FileWatch: @unchecked Sendable {
    /// How long a path must stay quiet before its change is reported:
    /// longer than an editor or vdirsyncer takes to write a file, short
    /// enough that a changed calendar is armed within a blink.
    static let quiet: Int32 = 100

    let changes: AsyncStream<String>
    private let fd: Int32
    private let logger: Logger
    private let lock = NSLock()
    private var folders: [Int32: String] = [:]
    private var watched: Set<String> = []

    init(logger: Logger) {
        self.logger = logger
        fd = inotify_init1(Int32(IN_CLOEXEC))
        if fd < 0 {
            logger.warning("inotify unavailable (\(String(cString: strerror(errno)))); reload with SIGHUP")
        }
        var continuation: AsyncStream<String>.Continuation!
        changes = AsyncStream { continuation = $0 }
        guard fd >= 0 else {
            continuation.finish()
            return
        }
        let yield = continuation!
        Thread.detachNewThread { [self] in read(yield) }
    }

    /// Starts watching `folder` (once; a folder that does not exist is
    /// skipped and may be added again later).
    func watch(_ folder: String) {
        guard fd >= 0 else { return }
        let folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        lock.withLock {
            guard !watched.contains(folder) else { return }
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
            let wd = inotify_add_watch(fd, folder, mask)
            if wd >= 0 {
                folders[wd] = folder
                watched.insert(folder)
            } else {
                logger.debug("not watching \(folder): it does not exist")
            }
        }
    }

    private func read(_ continuation: AsyncStream<String>.Continuation) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pending: [String] = []
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, pending.isEmpty ? -1 : Self.quiet)
            if ready == 0 {
                for path in pending { continuation.yield(path) }
                pending.removeAll()
                continue
            }
            if ready < 0 { if errno == EINTR { continue } else { break } }
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (wd, length, name) = buffer.withUnsafeBytes { raw -> (Int32, Int, String) in
                    let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = raw[start..<start + Int(event.len)].prefix { $0 != 0 }
                    return (event.wd, Int(event.len), String(decoding: bytes, as: UTF8.self))
                }
                offset += MemoryLayout<inotify_event>.size + length
                if let folder = lock.withLock({ folders[wd] }) {
                    let path = folder + "/" + name
                    if !pending.contains(path) { pending.append(path) }
                }
            }
        }
        continuation.finish()
    }
}

extension String {
    /// The last path component: `b.ics` of `/a/b.ics`.
    var fileName: String { split(separator: "/").last.map(String.init) ?? self }

    /// The folder of a path: `/a` of `/a/b.ics`, `.` for a bare name.
    var folder: String {
        guard let slash = lastIndex(of: "/") else { return "." }
        return slash == startIndex ? "/" : String(self[..<slash])
    }
}
