import Testing
import TrackeeTestSupport

@testable import TrackeeLocation

/// Numbers as feeds write them, `-50.0812345`, are read in one pass; the
/// value is the one the full reader gives, correctly rounded.
@Suite struct PlainDecimalTests {
    func decimal(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { ByteNumbers.decimal($0, 0, $0.count) }
    }

    /// Up to 15 significant digits a double holds, so the standard
    /// library's correctly rounded reading is the oracle.
    @Test func plainNumbersReadAsTheStandardLibraryReadsThem() {
        var g = SeededGenerator(seed: 11)
        var wrong: [String] = []
        for _ in 0..<20_000 {
            let whole = g.int(0...8)
            let fraction = g.int(0...(15 - whole))
            var text = g.pick(["", "-", "+"])
            for _ in 0..<whole { text += String(g.int(0...9)) }
            if fraction > 0 || whole == 0 {
                text += "."
                for _ in 0..<max(fraction, 1) { text += String(g.int(0...9)) }
            }
            if decimal(text) != Double(text) { wrong.append(text) }
        }
        #expect(wrong == [])
    }

    @Test func theEdgesOfThePlainFormKeepTheirMeaning() {
        #expect(decimal("5.") == 5)
        #expect(decimal(".5") == 0.5)
        #expect(decimal("+1.25") == 1.25)
        #expect(decimal("-0")?.sign == .minus)
        #expect(decimal("-0.000") == 0)
        #expect(decimal("0000000000000000000.5") == 0.5)  // 20 digits: the long way
        #expect(decimal("1e3") == 1000)
        #expect(decimal("") == nil)
        #expect(decimal("-") == nil)
        #expect(decimal(".") == nil)
        #expect(decimal("1.2.3") == nil)
        #expect(decimal("12a") == nil)
        #expect(decimal(" 1") == nil)
    }
}
