import Foundation

/// An input file named on the command line (`-` is standard input).
enum InputFile {
    /// Opens `file` for reading; one that is missing, unreadable or a
    /// folder is EX_NOINPUT with its path.
    static func open(_ file: String) throws -> Int32 {
        let fd = Glibc.open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CommandFailure.noInput("\(file): cannot read it (\(String(cString: strerror(errno))))")
        }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            Glibc.close(fd)
            throw CommandFailure.noInput("\(file): cannot read it (it is a directory)")
        }
        return fd
    }

    /// All of `file` (standard input for `-`) as text; bytes that are not
    /// UTF-8 become U+FFFD.
    static func read(_ file: String) throws -> String {
        let fd = file == "-" ? 0 : try open(file)
        defer { if fd != 0 { Glibc.close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandFailure.noInput("\(file == "-" ? "standard input" : file): cannot read it (\(String(cString: strerror(errno))))")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
