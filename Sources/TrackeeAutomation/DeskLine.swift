import TrackeeCore

/// The event lines of the desk kinds, each the ``DeskEvent`` a D-Bus or
/// udev source gives for the same change:
///
/// ```
/// {"type":"idle","since":"09:50"}             idle since then
/// {"type":"idle","idle_for":60}               idle since 60 s before the line's time
/// {"type":"idle","state":"active"}            active again ("since" optional)
/// {"type":"session","state":"locked"}         or unlocked
/// {"type":"sleep","state":"suspend"}          or resume, shutdown
/// {"type":"network","state":"connected","connection":"ACME","ssid":"ACME-Office",
///  "connection_type":"802-11-wireless","uuid":"…"}
/// {"type":"power","state":"battery"}          or ac
/// {"type":"device","action":"added","subsystem":"usb","usb":"17ef:30b4","serial":"…",
///  "name":"…","devpath":"/devices/…"}         vendor and product may be given apart
/// ```
enum DeskLine {
    /// The change a line of `type` describes; `read` is the line's time
    /// (its own, or when it was read), which `idle_for` counts back from.
    static func event(_ type: String, _ fields: [String: Any], read: Instant, now: Instant, zone: Zone,
                      fail: (String) -> EventLine.Failure) throws(EventLine.Failure) -> DeskEvent {
        func text(_ key: String) throws(EventLine.Failure) -> String? {
            guard let value = fields[key] else { return nil }
            guard let text = value as? String, !text.trimmingWhitespace().isEmpty else {
                throw fail("\"\(key)\" must be a text that is not blank")
            }
            return text
        }
        func word<Word: RawRepresentable & CaseIterable>(_ key: String, default fallback: Word? = nil)
            throws(EventLine.Failure) -> Word where Word.RawValue == String
        {
            let known = Word.allCases.map { "\"\($0.rawValue)\"" }
            let list = known.dropLast().joined(separator: ", ") + " or " + known.last!
            guard let value = fields[key] else {
                if let fallback { return fallback }
                throw fail("\"\(key)\" is missing; it must be \(list)")
            }
            guard let text = value as? String, let word = Word(rawValue: text) else {
                throw fail("\"\(key)\" must be \(list)")
            }
            return word
        }
        switch type {
        case "idle":
            return try idle(fields, read: read, now: now, zone: zone, fail: fail)
        case "session":
            return .session(try word("state"))
        case "sleep":
            return .sleep(try word("state"))
        case "power":
            return .power(try word("state"))
        case "network":
            guard let connection = try text("connection") else { throw fail("\"connection\" is missing or blank") }
            return .network(NetworkChange(state: try word("state"), connection: connection, ssid: try text("ssid"),
                                          connectionType: try text("connection_type"), uuid: try text("uuid")))
        default:
            return .device(try device(fields, text: text, action: try word("action"), fail: fail))
        }
    }

    private static func idle(_ fields: [String: Any], read: Instant, now: Instant, zone: Zone,
                             fail: (String) -> EventLine.Failure) throws(EventLine.Failure) -> DeskEvent {
        let since = try EventLine.time(fields["since"], key: "since", now: now, zone: zone, fail: fail)
        switch fields["state"] as? String ?? (fields["state"] == nil ? "idle" : "") {
        case "active":
            if fields["idle_for"] != nil { throw fail("\"idle_for\" goes with an idle line, not an active one") }
            return .active(since: since)
        case "idle":
            if let since {
                if fields["idle_for"] != nil { throw fail("give \"since\" or \"idle_for\", not both") }
                return .idle(since: since)
            }
            guard let seconds = fields["idle_for"] as? Int, seconds >= 0 else {
                throw fail("an idle line needs \"since\" (a time) or \"idle_for\" (whole seconds, 0 or more)")
            }
            return .idle(since: read - Int64(seconds))
        default:
            throw fail("\"state\" must be \"idle\" or \"active\"")
        }
    }

    private static func device(_ fields: [String: Any], text: (String) throws(EventLine.Failure) -> String?,
                               action: DeviceChange.Action, fail: (String) -> EventLine.Failure)
        throws(EventLine.Failure) -> DeviceChange
    {
        guard let devpath = try text("devpath") else { throw fail("\"devpath\" is missing or blank") }
        var vendor = try text("vendor").map { $0.lowercased() }
        var product = try text("product").map { $0.lowercased() }
        if let usb = try text("usb") {
            let parts = usb.lowercased().split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.utf8.count == 4 && $0.allSatisfy(\.isHexDigit) }) else {
                throw fail("\"usb\" must be vendor:product in hex, such as \"17ef:30b4\"")
            }
            if vendor != nil || product != nil { throw fail("give \"usb\" or \"vendor\" and \"product\", not both") }
            vendor = String(parts[0])
            product = String(parts[1])
        }
        for (key, id) in [("vendor", vendor), ("product", product)] {
            guard let id else { continue }
            guard id.utf8.count == 4, id.allSatisfy(\.isHexDigit) else { throw fail("\"\(key)\" must be four hex digits") }
        }
        // A USB id says the subsystem; anything else must name it.
        func subsystem() throws(EventLine.Failure) -> String {
            if let given = try text("subsystem") { return given }
            guard vendor != nil || product != nil else { throw fail("\"subsystem\" is missing or blank") }
            return "usb"
        }
        return DeviceChange(action: action, devpath: devpath, subsystem: try subsystem(),
                            vendor: vendor, product: product, serial: try text("serial"), name: try text("name"))
    }
}
