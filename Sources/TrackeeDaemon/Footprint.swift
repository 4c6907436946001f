import Foundation
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
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        else { return 0 }
        var advised = 0
        for line in maps.split(separator: "\n") {
            // "start-end perms offset dev inode path"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5] == path, !fields[1].contains("w") else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16) else { continue }
            if madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), 21 /* MADV_PAGEOUT */) == 0 {
                advised += Int(end - start)
            }
        }
        return advised
    }

    /// After reading a large calendar: gives the heap's free memory back
    /// (reading one leaves most of what it used free but held by malloc,
    /// spread over the arenas of the threads that read it) and pages out the
    /// binary's pages the reading faulted in.
    public static func settleAfterReading() {
        _ = mallocTrim(0)
        releaseStartupPages()
    }
}

/// glibc's malloc_trim(3), which Swift's Glibc module leaves out (it lives
/// in <malloc.h>).
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
