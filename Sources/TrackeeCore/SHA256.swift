/// SHA-256 (FIPS 180-4), for hashing API tokens before they are stored.
///
/// Core imports no Foundation and swift-crypto costs minutes of build time
/// for one function, so the hash is written out here. It works on one
/// 64-byte block at a time and allocates only the digest it returns.
///
///     SHA256.hex(Array("abc".utf8))
///     // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var state = State()
        for byte in bytes { state.append(byte) }
        return state.finish()
    }

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest(bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The running hash: eight words, the block being filled and the
    /// message length so far.
    private struct State {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
        var block = Block()
        var filled = 0
        var length: UInt64 = 0

        mutating func append(_ byte: UInt8) {
            block[filled] = byte
            filled += 1
            length &+= 1
            if filled == 64 {
                compress()
                filled = 0
            }
        }

        /// Pads as the standard says (0x80, zeros, the bit length big-endian)
        /// and returns the digest.
        mutating func finish() -> [UInt8] {
            let bits = length &* 8
            block[filled] = 0x80
            filled += 1
            if filled > 56 {
                while filled < 64 { block[filled] = 0; filled += 1 }
                compress()
                filled = 0
            }
            while filled < 56 { block[filled] = 0; filled += 1 }
            for i in 0..<8 { block[56 + i] = UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64(i))) }
            compress()
            var out: [UInt8] = []
            out.reserveCapacity(32)
            for word in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
                out.append(UInt8(truncatingIfNeeded: word >> 24))
                out.append(UInt8(truncatingIfNeeded: word >> 16))
                out.append(UInt8(truncatingIfNeeded: word >> 8))
                out.append(UInt8(truncatingIfNeeded: word))
            }
            return out
        }

        mutating func compress() {
            var w = Schedule()
            for t in 0..<16 {
                w[t] = UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16
                    | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
            }
            for t in 16..<64 {
                let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
                let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = h
            for t in 0..<64 {
                let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                let choose = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ choose &+ SHA256.k[t] &+ w[t]
                let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
        }
    }

    /// The first 32 bits of the fractional parts of the cube roots of the
    /// first 64 primes.
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

/// 64 bytes on the stack, so hashing a token allocates nothing per block.
private struct Block {
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    subscript(i: Int) -> UInt8 {
        get { withUnsafeBytes(of: storage) { $0[i] } }
        set { withUnsafeMutableBytes(of: &storage) { $0[i] = newValue } }
    }
}

/// The 64-word message schedule, on the stack for the same reason.
private struct Schedule {
    private var storage: (
        SIMD32<UInt32>, SIMD32<UInt32>
    ) = (.zero, .zero)

    subscript(i: Int) -> UInt32 {
        get { i < 32 ? storage.0[i] : storage.1[i - 32] }
        set { if i < 32 { storage.0[i] = newValue } else { storage.1[i - 32] = newValue } }
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
