import Foundation
import Testing

import TrackeeCore

@Suite struct SHA256Tests {
    /// The examples of FIPS 180-4 and NIST's "SHA-256 example" sheets.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ] as [(String, String)])
    func standardVectors(_ message: String, _ expected: String) {
        #expect(SHA256.hex(message.utf8) == expected)
    }

    @Test func aMillionAs() {
        #expect(SHA256.hex(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func digestIsTheHexsBytes() {
        let digest = SHA256.digest("abc".utf8)
        #expect(digest.count == 32)
        #expect(Array(digest.prefix(4)) == [0xba, 0x78, 0x16, 0xbf])
        #expect(Array(digest.suffix(4)) == [0xf2, 0x00, 0x15, 0xad])
    }

    /// Random bytes of the lengths around the padding's edges (55 and 56
    /// bytes need one block or two; 64 fills one exactly), and a few longer
    /// ones, against coreutils' sha256sum.
    @Test(arguments: [1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4097])
    func agreesWithSha256sum(_ length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let expected = try sha256sum(bytes)
        #expect(SHA256.hex(bytes) == expected, "bytes: \(bytes)")
    }

    private func sha256sum(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // "<64 hex digits>  -"
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    @Test func constantTimeEqualsComparesEveryByte() {
        #expect(constantTimeEquals([], []))
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([0, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(!constantTimeEquals([], [0]))
        // Differences that cancel out under addition do not under OR of XORs.
        #expect(!constantTimeEquals([1, 255], [2, 254]))
    }

    @Test func tokenScopesKeepTheirOrder() {
        #expect(TokenScope.allCases.map(\.rawValue) == ["start", "stop", "cancel", "read", "events", "owntracks"])
        #expect(TokenScope.ordered([.owntracks, .read, .start, .read]) == [.start, .read, .owntracks])
    }
}
