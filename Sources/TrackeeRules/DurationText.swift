/// Reads a rule file duration: one or more number–unit pairs, largest unit
/// first, with units `d`, `h`, `m` and `s`.
///
///     try parseDuration("1h30m")  // .seconds(5400)
///     try parseDuration("90")     // throws: a unit is required
func parseDuration(_ text: String) throws(InvalidValue) -> Duration {
    let units: [(letter: UInt8, seconds: Int64)] = [
        (UInt8(ascii: "d"), 86_400), (UInt8(ascii: "h"), 3600), (UInt8(ascii: "m"), 60), (UInt8(ascii: "s"), 1),
    ]
    let failure = InvalidValue("expected a duration such as 30s, 10m, 2h or 1h30m, found \"\(text)\"")
    var total: Int64 = 0
    var number: Int64?
    var nextUnit = 0
    for byte in text.utf8 {
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            let n = (number ?? 0) * 10 + Int64(byte - UInt8(ascii: "0"))
            guard n < 1_000_000_000 else { throw failure }
            number = n
        } else if let unit = units[nextUnit...].firstIndex(where: { $0.letter == byte }), let n = number {
            total += n * units[unit].seconds
            number = nil
            nextUnit = unit + 1
        } else {
            throw failure
        }
    }
    guard number == nil, nextUnit > 0 else { throw failure }
    return .seconds(total)
}
