/// What one bus attached and what it is without, for the start line and
/// the log.
struct BusReport: Sendable {
    var attached: [DeskSummary.Attached]
    var absent: [String]

    init(attached: [DeskSummary.Attached], absent: [String]) {
        self.attached = attached
        self.absent = absent
    }

    init(_ slots: [WatchSlot], bus: DeskBus) {
        attached = []
        absent = []
        for slot in slots {
            switch slot.state {
            case .attached:
                attached.append(DeskSummary.Attached(reports: slot.plan.reports, watch: slot.watch.name))
            case .absent:
                let text = "\(slot.watch.name) (not on the \(bus) bus)"
                if !absent.contains(text) { absent.append(text) }
            case .failed(let reason, _, _):
                absent.append("\(slot.plan.reports) from \(slot.watch.name) (\(reason))")
            case .waiting:
                break
            }
        }
    }

    /// The report as part of a log line.
    var line: String {
        String(DeskSummary(attached: attached, absent: absent).description.dropFirst("desk: ".count))
    }
}
