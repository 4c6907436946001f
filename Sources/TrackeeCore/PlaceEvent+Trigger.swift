/// `arrive:` and `leave:` events: a place was entered or left. Every rule
/// with a matching trigger (same place, source and `for:`) is considered.
extension PlaceEvent: TriggerPayload {
    /// Rules are filed by place; the trigger checks the rest.
    public static func indexKey(place: String) -> String { "place:\(place)" }

    public var kindName: String { "place" }
    public var indexKey: String { Self.indexKey(place: place) }
    public func occurrence(at time: Instant) -> String {
        "place:\(keyPart(place)):\(transition.rawValue):\(time.seconds)"
    }
    public func fields(zone: Zone) -> [String: String] {
        [
            "place": place, "transition": transition.rawValue, "lat": decimal(fix.latitude),
            "lon": decimal(fix.longitude), "accuracy": fix.accuracy.map(decimal) ?? "",
        ]
    }
    /// A crossing that has lasted a dwell: the geofences watch that dwell
    /// only for a rule's `for:`.
    public var isMadeForARule: Bool { dwell != 0 }
    public var summary: String { "\(transition.rawValue) \(place)" + (geofence == .owntracks ? " (OwnTracks)" : "") }
}

extension TriggerPayload where Self == PlaceEvent {
    public static func place(_ event: PlaceEvent) -> PlaceEvent { event }
}

/// A coordinate or a distance as plain decimal text: `50.0875`, `12`.
private func decimal(_ value: Double) -> String {
    let rounded = (value * 1_000_000).rounded() / 1_000_000
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return "\(rounded)"
}
