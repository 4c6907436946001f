/// Whether `a` and `b` hold the same bytes, taking the same time whatever
/// they hold: a secret compared with `==` would tell an attacker, through
/// timing, how many leading bytes they guessed right. The lengths are
/// compared first (they are no secret: every token hash is 64 digits).
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in 0..<a.count { difference |= a[i] ^ b[i] }
    return difference == 0
}
