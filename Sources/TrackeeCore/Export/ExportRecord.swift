/// One finished entry, flattened for export. The caller has already turned
/// instants into local wall-clock values, so formatting needs no zone.
public struct ExportRecord: Sendable, Equatable {
    public var id: Int64
    public var project: String
    public var client: String
    public var description: String
    public var tags: [String]
    public var billable: Bool
    /// Hourly rate in minor currency units (cents), if the project has one.
    public var rateCents: Int64?
    public var start: LocalDateTime
    /// Seconds east of UTC at `start`.
    public var startOffset: Int
    public var end: LocalDateTime
    /// Seconds east of UTC at `end`.
    public var endOffset: Int
    public var durationSeconds: Int64
    public var source: String

    public init(
        id: Int64, project: String, client: String, description: String, tags: [String],
        billable: Bool, rateCents: Int64?, start: LocalDateTime, startOffset: Int,
        end: LocalDateTime, endOffset: Int, durationSeconds: Int64, source: String
    ) {
        self.id = id
        self.project = project
        self.client = client
        self.description = description
        self.tags = tags
        self.billable = billable
        self.rateCents = rateCents
        self.start = start
        self.startOffset = startOffset
        self.end = end
        self.endOffset = endOffset
        self.durationSeconds = durationSeconds
        self.source = source
    }
}
