import Foundation
import Glibc

/// Tells when the store's database or its write-ahead log is written, by
/// any process: inotify on the store's folder, so the event stream hears
/// of a `trackee start` in a terminal within milliseconds. Changes that
/// come while the last one is being read collapse into one.
final class StoreWatch: @unchecked Sendable {
    let changes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let fd: Int32
    private let stopped = NSLock()
    private var stopping = false

    /// Nil when inotify cannot watch the folder; the stream then has no
    /// live events (heartbeats still go).
    init?(storePath: String) {
        let url = URL(fileURLWithPath: storePath)
        let folder = url.deletingLastPathComponent().path
        let names: Set<String> = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, folder, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) >= 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        var continuation: AsyncStream<Void>.Continuation!
        changes = AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation = $0 }
        let yield = continuation!
        self.continuation = yield
        Thread.detachNewThread { [self] in read(names: names, into: yield) }
    }

    /// Reads as if the store had changed: a stream that opened after
    /// reading its cursor and before the hub knew of it gets what came
    /// in between now, not at the next change.
    func poke() {
        continuation.yield()
    }

    /// Ends the stream; the reading thread notices within half a second.
    func stop() {
        stopped.withLock { stopping = true }
    }

    private func read(names: Set<String>, into continuation: AsyncStream<Void>.Continuation) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        defer {
            close(fd)
            continuation.finish()
        }
        while !stopped.withLock({ stopping }) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 500) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            var touched = false
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (length, name) = buffer.withUnsafeBytes { raw -> (Int, String) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = raw[start..<start + Int(event.len)].prefix { $0 != 0 }
                    return (Int(event.len), String(decoding: bytes, as: UTF8.self))
                }
                if names.contains(name) { touched = true }
                offset += MemoryLayout<inotify_event>.size + length
            }
            if touched { continuation.yield() }
        }
    }
}
