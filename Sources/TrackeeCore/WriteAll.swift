#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes all of `text` to a file descriptor, straight through write(2),
/// retrying after signals. A closed pipe or a full disk ends the output
/// quietly, as with `print`.
///
/// ```swift
/// writeAll(2, "trackee: no timer running\n")
/// ```
public func writeAll(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { writeAll(fd, $0) }
}

/// ``writeAll(_:_:)`` for bytes.
public func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
    var offset = 0
    while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
    }
}
