extension ExportRecord {
    /// The record of entry `e`, finished at `end`, in `zone`'s wall-clock
    /// time: what `trackee export` and `GET /v1/entries` both write.
    public init(_ e: Entry, end: Instant, zone: Zone) {
        self.init(
            id: e.id, project: e.project ?? "", client: e.client ?? "", description: e.description,
            tags: e.tags, billable: e.billable, rateCents: e.rateCents,
            start: zone.localDateTime(e.start), startOffset: zone.offset(at: e.start),
            end: zone.localDateTime(end), endOffset: zone.offset(at: end),
            durationSeconds: end - e.start, source: e.source)
    }
}
