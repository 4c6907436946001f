import TrackeeCore

/// `flip: {facet: 3}`, `flip: paused` or `flip: {battery_below: 20}`: the
/// TimeFlip2 cube turned to a facet (or resumed on it after a pause), was
/// paused, or its battery's charge fell below a percentage. `device:` names
/// the cube when there are several.
public struct FlipTrigger: DeskTrigger, Equatable {
    public enum Edge: Sendable, Equatable {
        case facet(Int)
        case paused
        case batteryBelow(Int)
    }

    public var edge: Edge
    /// The cube's address; nil for any cube.
    public var device: String?

    public init(_ edge: Edge, device: String? = nil) {
        self.edge = edge
        self.device = device
    }

    public var kindName: String { "flip" }

    public var index: TriggerIndex {
        switch edge {
        case .facet(let facet): .key(FlipEdge.indexKey(facet: facet))
        case .paused: .key(FlipEdge.pausedIndexKey)
        case .batteryBelow: .key(FlipEdge.batteryIndexKey)
        }
    }

    /// A battery rule takes a fall below its percentage once: from at or
    /// above it (or from nothing known) to below it.
    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        guard let flip = event.payload as? FlipEdge else { return false }
        if let device, flip.device.uppercased() != device.uppercased() { return false }
        switch (edge, flip.change) {
        case (.facet(let wanted), .facet(let facet)): return wanted == facet
        case (.paused, .paused): return true
        case (.batteryBelow(let limit), .battery(let percent, let previous)):
            return percent < limit && (previous ?? limit) >= limit
        default: return false
        }
    }

    /// `{"flip": "facet", "facet": "3"}`; `flip facet 3 (device 0C:…)`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        var fields: [String: ViewValue]
        var text: String
        switch edge {
        case .facet(let facet):
            fields = ["flip": .text("facet"), "facet": .text(String(facet))]
            text = "flip facet \(facet)"
        case .paused:
            fields = ["flip": .text("paused")]
            text = "flip paused"
        case .batteryBelow(let limit):
            fields = ["flip": .text("battery_below"), "battery_below": .text(String(limit))]
            text = "flip battery below \(limit)%"
        }
        if let device {
            fields["device"] = .text(device)
            text += " (device \(device))"
        }
        return TriggerCheckView(fields: fields, text: text)
    }
}

extension RuleTrigger where Self == FlipTrigger {
    public static func flip(_ edge: FlipTrigger.Edge, device: String? = nil) -> FlipTrigger { FlipTrigger(edge, device: device) }
}

extension TriggerKind {
    static let flip = TriggerKind(
        key: "flip", options: [], fields: ["state", "facet", "event", "device", "flipped_at", "battery"],
        timeFields: ["flipped_at"]
    ) { fields, reader in
        guard let value = fields["flip"] else { return nil }
        guard case .mapping = value.node else {
            guard let word = reader.string(value) else { return nil }
            if word == "paused" { return FlipTrigger(.paused) }
            reader.failUnknown(word, at: value, noun: "flip edge", known: ["paused", "{facet: N}", "{battery_below: N}"])
            return nil
        }
        guard let keys = reader.fields(value, known: ["facet", "battery_below", "paused", "device"]) else { return nil }
        func number(_ key: String, _ range: ClosedRange<Int>, _ what: String) -> Int? {
            guard let item = keys[key] else { return nil }
            return reader.parsed(item) { (text: String) throws(InvalidValue) in
                guard let number = Int(text), range.contains(number) else {
                    let bounds = "\(range.lowerBound) to \(range.upperBound)"
                    throw InvalidValue("\(what) must be a whole number from \(bounds), found \"\(text)\"")
                }
                return number
            }
        }
        let given = ["facet", "battery_below", "paused"].filter { keys[$0] != nil }
        guard given.count == 1 else {
            reader.fail("a flip trigger names one of facet:, battery_below: or paused:", at: value)
            return nil
        }
        let edge: FlipTrigger.Edge
        switch given[0] {
        case "facet":
            guard let facet = number("facet", 1...12, "facet") else { return nil }
            edge = .facet(facet)
        case "battery_below":
            guard let limit = number("battery_below", 1...100, "battery_below") else { return nil }
            edge = .batteryBelow(limit)
        default:
            guard let paused = keys["paused"], reader.string(paused) == "true" else {
                reader.fail("write flip: paused, or paused: true", at: keys["paused"] ?? value)
                return nil
            }
            edge = .paused
        }
        var device: String?
        if let item = keys["device"] {
            guard let name = reader.name(item, "device") else { return nil }
            device = name
        }
        return FlipTrigger(edge, device: device)
    }
}
