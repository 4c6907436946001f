import Testing
import TrackeeTestSupport

@testable import TrackeeCalendar

/// The scanner's eight-bytes-at-a-time loops against byte-at-a-time ones,
/// on random texts with line feeds and bad UTF-8 at every offset.
@Suite struct ScannerWordTests {
    /// The first byte that breaks UTF-8, one byte at a time.
    static func referenceFirstInvalid(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let (length, low, high): (Int, UInt8, UInt8) =
                switch b {
                case 0xC2...0xDF: (2, 0x80, 0xBF)
                case 0xE0: (3, 0xA0, 0xBF)
                case 0xE1...0xEC, 0xEE, 0xEF: (3, 0x80, 0xBF)
                case 0xED: (3, 0x80, 0x9F)
                case 0xF0: (4, 0x90, 0xBF)
                case 0xF1...0xF3: (4, 0x80, 0xBF)
                case 0xF4: (4, 0x80, 0x8F)
                default: (0, 0, 0)
                }
            if length == 0 || i + length > bytes.count || bytes[i + 1] < low || bytes[i + 1] > high { return i }
            if (2..<length).contains(where: { bytes[i + $0] < 0x80 || bytes[i + $0] > 0xBF }) { return i }
            i += length
        }
        return nil
    }

    @Test func wordLoopsAgreeWithByteLoops() {
        var random = SeededGenerator(seed: 5545)
        let pieces: [[UInt8]] = [
            Array("SUMMARY:Team sync".utf8), [0x0A], [0x0D, 0x0A], Array("Příliš žluťoučký".utf8), Array("🙂".utf8),
            [0xC3], [0xFF], [0xE2, 0x82], [0xED, 0xA0, 0x80], Array("x".utf8),
        ]
        var invalid = 0
        for round in 0..<3000 {
            // Every other text from the valid pieces only.
            let usable = round % 2 == 0 ? Array(pieces[0..<5] + [pieces[9]]) : pieces
            var bytes: [UInt8] = []
            for _ in 0..<random.int(0...40) { bytes += random.pick(usable) }
            let first = ContentLineScanner.firstInvalidUTF8(bytes)
            #expect(first == Self.referenceFirstInvalid(bytes), "\(bytes)")
            if first != nil { invalid += 1 }
            let from = random.int(0...bytes.count)
            let to = random.int(from...bytes.count)
            #expect(ContentLineScanner.newlines(in: bytes, from..<to) == bytes[from..<to].filter { $0 == 0x0A }.count)
        }
        // Both kinds of text were tried.
        #expect(invalid > 1000 && invalid <= 1500)
    }
}
