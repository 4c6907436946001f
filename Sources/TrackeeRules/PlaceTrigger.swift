import TrackeeCore

/// `arrive: PLACE` or `leave: PLACE`: a place from `places:` was entered or
/// left, by trackee's own geofence over fixes, or (`source: owntracks`) by
/// the phone's, as OwnTracks reports it.
///
///     when: {arrive: office, for: 2m}
///     when: {leave: office, for: 5m}
///     when: {arrive: office, source: owntracks}
public struct PlaceTrigger: RuleTrigger, Equatable, Hashable {
    public var place: String
    public var transition: PlaceTransition
    /// Seconds the new state must hold before the rule fires (`for:`); the
    /// firing keeps the time of the first fix of the new state.
    public var dwell: Int64
    /// Its `source:`: whose geofence decides.
    public var geofence: PlaceEvent.Geofence

    public init(place: String, transition: PlaceTransition, dwell: Int64 = 0, geofence: PlaceEvent.Geofence = .fixes) {
        self.place = place
        self.transition = transition
        self.dwell = dwell
        self.geofence = geofence
    }

    public var index: TriggerIndex { .key(PlaceEvent.indexKey(place: place)) }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        guard let e = event.payload as? PlaceEvent else { return false }
        return accepts(e)
    }

    /// A plain crossing (no dwell) of this place in this direction: the
    /// geofences make it because this trigger watches the place.
    public func awaits(_ event: TriggerEvent) -> Bool {
        guard let e = event.payload as? PlaceEvent else { return false }
        return e.dwell == 0 && e.place == place && e.transition == transition
    }

    /// `{"place": NAME, "transition": "arrive", "dwell": "2m", "source": "owntracks"}`;
    /// `arrive NAME for 2m (owntracks)`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        var fields: [String: ViewValue] = ["place": .text(place), "transition": .text(transition.rawValue)]
        // offsetText signs a positive duration: `+2m`.
        let dwellText = dwell == 0 ? nil : String(CalendarTrigger(calendar: "", offset: dwell).offsetText.dropFirst())
        if let dwellText { fields["dwell"] = .text(dwellText) }
        if geofence != .fixes { fields["source"] = .text(geofence.rawValue) }
        return TriggerCheckView(
            fields: fields,
            text: "\(transition.rawValue) \(place)" + (dwellText.map { " for \($0)" } ?? "")
                + (geofence == .fixes ? "" : " (\(geofence.rawValue))"))
    }

    /// Whether `event` is this trigger's.
    public func accepts(_ event: PlaceEvent) -> Bool {
        event.place == place && event.transition == transition && event.geofence == geofence
            && (geofence == .owntracks || event.dwell == dwell)
    }
}

extension TriggerKind {
    static let placeFields = ["place", "transition", "lat", "lon", "accuracy"]

    static let arrive = placeKind(.arrive)
    static let leave = placeKind(.leave)

    private static func placeKind(_ transition: PlaceTransition) -> TriggerKind {
        TriggerKind(key: transition.rawValue, options: ["for", "source"], fields: placeFields) { fields, reader in
            guard let value = fields[transition.rawValue], let name = reader.name(value, "place") else { return nil }
            var trigger = PlaceTrigger(place: name, transition: transition)
            var ok = true
            if let dwell = fields["for"] {
                if let parsed = reader.parsed(dwell, parseDuration) { trigger.dwell = parsed.components.seconds } else { ok = false }
            }
            if let source = fields["source"] {
                if let parsed = reader.parsed(source, parseGeofence) { trigger.geofence = parsed } else { ok = false }
            }
            if trigger.geofence == .owntracks && trigger.dwell > 0, let dwell = fields["for"] {
                reader.fail("for: applies to trackee's own geofence; OwnTracks decides its transitions itself", at: dwell)
                ok = false
            }
            reader.referPlace(name, at: value)
            return ok ? trigger : nil
        }
    }
}

private func parseGeofence(_ text: String) throws(InvalidValue) -> PlaceEvent.Geofence {
    guard let geofence = PlaceEvent.Geofence(rawValue: text) else {
        throw InvalidValue("expected fixes or owntracks, found \"\(text)\"")
    }
    return geofence
}

extension RuleTrigger where Self == PlaceTrigger {
    public static func place(_ trigger: PlaceTrigger) -> PlaceTrigger { trigger }
}
