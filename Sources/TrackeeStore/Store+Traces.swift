import GRDB
import TrackeeCore

extension Store {
    /// Records `traces` in one transaction and prunes each rule they name
    /// down to its newest `keep`. Pruning is one indexed delete per rule in
    /// the batch, so a write costs the same however long the store has run.
    public func recordTraces(_ traces: [RuleTrace], keep: Int = RuleTrace.defaultKept) throws {
        guard !traces.isEmpty else { return }
        try write { db in try insert(db, traces, keep: keep) }
    }

    /// The newest traces of `rule` (nil: events no rule waited for), newest
    /// first, at most `limit`.
    public func traces(rule: String?, limit: Int) throws -> [RuleTrace] {
        try read { db in
            try Row.fetchAll(db, sql: "\(Self.traceColumns) WHERE rule IS ? ORDER BY id DESC LIMIT ?",
                             arguments: [rule, limit]).map(Self.trace)
        }
    }

    /// The newest `limit` traces of every rule and of events no rule waited
    /// for, newest first (by when they were recorded).
    public func latestTraces(limit: Int) throws -> [RuleTrace] {
        try read { db in
            try Row.fetchAll(db, sql: "\(Self.traceColumns) ORDER BY id DESC LIMIT ?", arguments: [limit]).map(Self.trace)
        }
    }

    /// Traces recorded after the one numbered `id`, oldest first, with the
    /// number of the last: for a caller that shows them as they come.
    public func traces(after id: Int64) throws -> (traces: [RuleTrace], last: Int64) {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "\(Self.traceColumns) WHERE id > ? ORDER BY id", arguments: [id])
            return (rows.map(Self.trace), rows.last.map { $0["id"] as Int64 } ?? id)
        }
    }

    func insert(_ db: Database, _ traces: [RuleTrace], keep: Int) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO rule_trace (rule, occurred, noticed, trigger, verdict, conditions, firing_key, actions, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var rules: [String?] = []
        for trace in traces {
            try statement.execute(arguments: [
                trace.rule, trace.occurred.seconds, trace.noticed.seconds, trace.trigger, trace.verdict.rawValue,
                TraceText.join(trace.conditions.map { [$0.holds ? "true" : "false", $0.condition, $0.input] }),
                trace.key, TraceText.join(trace.actions.map { [$0.action, $0.key ?? "", $0.outcome ?? ""] }), trace.detail,
            ])
            if !rules.contains(trace.rule) { rules.append(trace.rule) }
        }
        // The newest row past `keep` first, then a plain range delete only
        // when there is one: a DELETE with that lookup as a subquery
        // builds a temporary table at every call, which cost a feed's
        // firings more than the traces themselves.
        let oldest = try db.cachedStatement(
            sql: "SELECT id FROM rule_trace WHERE rule IS ? ORDER BY id DESC LIMIT 1 OFFSET ?")
        let prune = try db.cachedStatement(sql: "DELETE FROM rule_trace WHERE rule IS ? AND id <= ?")
        for rule in rules {
            guard let last = try Int64.fetchOne(oldest, arguments: [rule, max(keep, 1)]) else { continue }
            try prune.execute(arguments: [rule, last])
        }
    }

    private static let traceColumns =
        "SELECT id, rule, occurred, noticed, trigger, verdict, conditions, firing_key, actions, detail FROM rule_trace"

    private static func trace(_ row: Row) -> RuleTrace {
        RuleTrace(
            rule: row["rule"], occurred: Instant(seconds: row["occurred"]), noticed: Instant(seconds: row["noticed"]),
            trigger: row["trigger"], verdict: RuleTrace.Verdict(rawValue: row["verdict"]) ?? .failed,
            conditions: TraceText.split(row["conditions"]).map {
                RuleTrace.ConditionStep(condition: $0[safe: 1], input: $0[safe: 2], holds: $0[safe: 0] == "true")
            },
            key: row["firing_key"],
            actions: TraceText.split(row["actions"]).map {
                RuleTrace.ActionStep(action: $0[safe: 0], key: $0[safe: 1].nonEmpty, outcome: $0[safe: 2].nonEmpty)
            },
            detail: row["detail"])
    }
}

/// Steps as the `conditions` and `actions` columns hold them: a line each,
/// fields split by tabs, with `\`, tab and newline escaped inside a field.
enum TraceText {
    static func join(_ steps: [[String]]) -> String {
        steps.map { $0.map(escape).joined(separator: "\t") }.joined(separator: "\n")
    }

    static func split(_ text: String) -> [[String]] {
        guard !text.isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map { unescape(String($0)) }
        }
    }

    private static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" }) else { return field }
        var out = ""
        for c in field {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    private static func unescape(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        var out = ""
        var escaped = false
        for c in field {
            if escaped {
                out.append(c == "t" ? "\t" : c == "n" ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

extension Array where Element == String {
    /// The field at `index`, or empty where a row has fewer.
    fileprivate subscript(safe index: Int) -> String { indices.contains(index) ? self[index] : "" }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

extension RuleTrace {
    /// Fills in what recording the firing did: nil outcome, the ledger had
    /// the key; a refusal; or each intent's outcome, in the order of the
    /// intent actions.
    mutating func record(_ outcome: FiringOutcome?) {
        guard let outcome else {
            verdict = .alreadyFired
            return
        }
        var results = outcome.results.makeIterator()
        for index in actions.indices where actions[index].key != nil {
            if outcome.refused != nil {
                actions[index].outcome = "refused"
            } else {
                actions[index].outcome = results.next()?.outcome.rawValue
            }
        }
        if let refusal = outcome.refused {
            verdict = .refused
            detail = "\(refusal)"
        }
    }
}
