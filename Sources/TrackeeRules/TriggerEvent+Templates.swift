import TrackeeCore

extension TriggerEvent {
    /// Fields every event gives `{{trigger.FIELD}}`, besides its kind's ``fields``.
    static let commonTemplateFields = ["kind", "time", "rule"]

    /// What `{{trigger.FIELD}}` becomes when `rule` fires on this event:
    /// ``fields`` plus `kind`, `time` (ISO 8601 with offset in `zone`) and `rule`.
    ///
    ///     // focus deep on at 1_795_168_980, Europe/Prague
    ///     ["kind": "focus", "time": "2026-11-20T11:03:00+01:00", "rule": "deep",
    ///      "mode": "deep", "state": "on"]
    func templateValues(rule: String, zone: Zone) -> [String: String] {
        var values = fields(zone: zone)
        values["kind"] = kindName
        values["time"] = zone.iso8601(time)
        values["rule"] = rule
        return values
    }

}
