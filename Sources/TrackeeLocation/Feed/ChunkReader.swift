import Glibc

/// Reads a file descriptor in large chunks, handing out whole lines
/// without copying them (a line cut by a chunk's end is carried over).
struct ChunkReader {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEnd = false

    init(fd: Int32) { self.fd = fd }

    /// Fills the buffer from the current position; false at the end.
    private mutating func fill() -> Bool {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { b in
                _ = memmove(b.baseAddress!, b.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        while true {
            let n = buffer.withUnsafeMutableBufferPointer { b in Glibc.read(fd, b.baseAddress! + end, b.count - end) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                atEnd = true
                return false
            }
            end += n
            return true
        }
    }

    /// The first byte that is not white space, without consuming input.
    mutating func peekFirstNonSpace() -> UInt8? {
        while true {
            if let b = buffer[start..<end].first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) {
                return b
            }
            if atEnd || !fill() { return nil }
        }
    }

    /// The rest of the input as chunks.
    mutating func nextChunk() -> [UInt8]? {
        if start == end && (atEnd || !fill()) { return nil }
        let chunk = Array(buffer[start..<end])
        start = end
        return chunk
    }

    /// Calls `body` with each line (without its `\n`) until it returns
    /// false or the input ends; a last line without `\n` counts.
    mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        while true {
            var stop = false
            let consumed = buffer.withUnsafeBufferPointer { b -> Int in
                var lineStart = start
                guard let base = b.baseAddress else { return start }
                while lineStart < end {
                    guard let newline = memchr(base + lineStart, 0x0A, end - lineStart) else { break }
                    let at = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    if !body(UnsafeBufferPointer(start: base + lineStart, count: at - lineStart)) {
                        stop = true
                        return at + 1
                    }
                    lineStart = at + 1
                }
                return lineStart
            }
            start = consumed
            if stop { return }
            if !fill() {
                if start < end {
                    buffer.withUnsafeBufferPointer { b in
                        _ = body(UnsafeBufferPointer(start: b.baseAddress! + start, count: end - start))
                    }
                    start = end
                }
                return
            }
        }
    }
}
