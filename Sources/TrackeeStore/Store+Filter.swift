import GRDB
import TrackeeCore

/// An ``EntryFilter``'s names as SQL over `entry e`: a condition to AND
/// into a query's WHERE clause, and its arguments.
struct FilterCondition {
    var sql: String
    var arguments: StatementArguments
}

extension Store {
    /// Resolves the filter's names against the store. A name that matches
    /// nothing is an error with the nearest existing name, because an
    /// empty report would hide the typo.
    func condition(_ db: Database, _ filter: EntryFilter) throws -> FilterCondition {
        var parts: [String] = []
        var arguments: StatementArguments = []
        if !filter.projects.isEmpty {
            var ids: [Int64] = []
            for typed in filter.projects {
                let name = typed.trimmingWhitespace()
                let found = try Int64.fetchAll(db, sql: "SELECT id FROM project WHERE name = ?", arguments: [name])
                if found.isEmpty {
                    let all = try String.fetchAll(db, sql: "SELECT DISTINCT name FROM project ORDER BY name")
                    throw StoreError.unknownFilterName(kind: .project, name: name, nearest: nearest(to: name, among: all))
                }
                ids += found
            }
            parts.append("e.project_id IN (\(ids.map(String.init).joined(separator: ",")))")
        }
        if !filter.clients.isEmpty {
            var ids: [Int64] = []
            for typed in filter.clients {
                let name = typed.trimmingWhitespace()
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM client WHERE name = ?", arguments: [name])
                else {
                    let all = try String.fetchAll(db, sql: "SELECT name FROM client ORDER BY name")
                    throw StoreError.unknownFilterName(kind: .client, name: name, nearest: nearest(to: name, among: all))
                }
                ids.append(id)
            }
            parts.append(
                "e.project_id IN (SELECT id FROM project WHERE client_id IN (\(ids.map(String.init).joined(separator: ","))))")
        }
        if !filter.tags.isEmpty {
            var alternatives: [String] = []
            for typed in filter.tags {
                let name = typed.trimmingWhitespace()
                // Tags live in one comma-separated column: wrapped in
                // commas, a whole tag is found without matching a part.
                let needle = "," + name + ","
                let used = try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM entry WHERE instr(',' || tags || ',', ?) > 0)",
                    arguments: [needle]) ?? false
                if !used {
                    throw StoreError.unknownFilterName(kind: .tag, name: name, nearest: nearest(to: name, among: try allTags(db)))
                }
                alternatives.append("instr(',' || e.tags || ',', ?) > 0")
                _ = arguments.append(contentsOf: [needle])
            }
            parts.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        return FilterCondition(sql: parts.joined(separator: " AND "), arguments: arguments)
    }

    /// Every tag on any entry, sorted.
    func allTags(_ db: Database) throws -> [String] {
        var tags = Set<String>()
        for list in try String.fetchAll(db, sql: "SELECT DISTINCT tags FROM entry WHERE tags != ''") {
            tags.formUnion(Tags.decode(list))
        }
        return tags.sorted()
    }
}
