#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an export goes: standard output, or a file written beside its
/// final name (`NAME.tmp-PID`) and renamed into place by ``finish()``, so a
/// failed export never leaves half a file. What fails is a ``Refusal``
/// naming the file and the system's reason.
public final class ExportFile {
    private let fd: Int32
    private let path: String?
    private let temporary: String?

    /// Standard output for nil or `-`; else opens the temporary file
    /// beside `path`.
    public init(path: String?) throws(Refusal) {
        guard let path, path != "-" else {
            fd = 1
            self.path = nil
            temporary = nil
            return
        }
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Refusal("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.path = path
        temporary = tmp
    }

    /// Writes all of `text`, retrying after signals.
    public func write(_ text: String) throws(Refusal) {
        var text = text
        let failed: Int32? = text.withUTF8 { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if let failed {
            throw Refusal("cannot write \(path ?? "standard output"): \(String(cString: strerror(failed)))")
        }
    }

    /// Makes the file durable and puts it in place of `path`; on failure
    /// the temporary file is removed. Nothing to do for standard output.
    public func finish() throws(Refusal) {
        guard let path, let temporary else { return }
        if fsync(fd) != 0 || close(fd) != 0 || rename(temporary, path) != 0 {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw Refusal("cannot write \(path): \(message)")
        }
    }

    /// Closes and removes the temporary file, leaving `path` as it was.
    public func abandon() {
        guard let temporary else { return }
        close(fd)
        unlink(temporary)
    }
}
