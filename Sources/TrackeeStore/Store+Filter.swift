import GRDB
import TrackeeCore

/// An ``EntryFilter``'s names, description and billing as SQL over `entry e`: a condition to AND
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
        if let text = filter.description {
            // SQLite's lower() and LIKE fold ASCII only; Swift folds
            // "Č" to "č" too. The function exists only for this query.
            db.add(function: Self.descriptionContains)
            parts.append("trackee_contains(e.description, ?)")
            _ = arguments.append(contentsOf: [text.lowercased()])
        }
        switch filter.billable {
        case nil: break
        case true?: parts.append("e.project_id IN (SELECT id FROM project WHERE billable)")
        case false?: parts.append("(e.project_id IS NULL OR e.project_id NOT IN (SELECT id FROM project WHERE billable))")
        }
        return FilterCondition(sql: parts.joined(separator: " AND "), arguments: arguments)
    }

    /// `trackee_contains(text, needle)`: whether `text`, lowercased,
    /// contains `needle` (lowercased by the caller).
    static let descriptionContains = DatabaseFunction("trackee_contains", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let needle = String.fromDatabaseValue(values[1]) else {
            return false
        }
        return text.lowercased().contains(needle)
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
