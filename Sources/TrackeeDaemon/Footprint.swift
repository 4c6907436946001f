import Glibc

/// Keeps the daemon's resident memory to what it uses. The static binary
/// is about 100 MB; starting a command faults in some 20 MB of it (the
/// kernel maps 64 KB around each fault, and Swift's runtime walks its type
/// metadata), most of which an idle daemon never touches again. After
/// start-up the daemon asks the kernel to page those clean, file-backed
/// pages out (MADV_PAGEOUT); the few it still needs fault back in.
public enum Footprint {
    /// Pages out the executable's read-only mappings. Returns the bytes
    /// advised; 0 where the kernel lacks MADV_PAGEOUT (before 5.4).
    @discardableResult
    public static func releaseStartupPages() -> Int {
        guard let maps = fopen("/proc/self/maps", "r") else { return 0 }
        defer { fclose(maps) }
        var exe = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &exe, exe.count - 1)
        guard n > 0 else { return 0 }
        let path = String(decoding: exe[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var advised = 0
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(cString: line)
            // "start-end perms offset dev inode path"
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5].hasPrefix(path), !fields[1].contains("w") else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16) else { continue }
            if madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), 21 /* MADV_PAGEOUT */) == 0 {
                advised += Int(end - start)
            }
        }
        return advised
    }
}
