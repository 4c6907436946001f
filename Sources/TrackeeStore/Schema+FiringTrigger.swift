import GRDB

extension Schema {
    /// Migration v12: what fired a rule gets a column of its own in the
    /// firing ledger, and a rule's intent names its firing in the intent
    /// log, so that history reads both instead of taking texts apart.
    ///
    /// The rows recorded before have them only inside other texts: the
    /// trigger inside the firing's description (`rule "x" (Name): focus
    /// deep on at 2026-…`), the firing inside the intent's key
    /// (`x@focus:3#0`). They are read out here, once; the parse is frozen
    /// with this migration, as the texts it reads are no longer written
    /// any other way.
    static func firingTrigger(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE rule_firing ADD COLUMN trigger TEXT NOT NULL DEFAULT '';
            ALTER TABLE intent_log ADD COLUMN firing TEXT;
            """)
        let firings = try Row.fetchAll(db, sql: "SELECT key, description FROM rule_firing")
        for row in firings {
            let description: String = row[1]
            try db.execute(
                sql: "UPDATE rule_firing SET trigger = ? WHERE key = ?", arguments: [trigger(in: description), row[0]])
        }
        // Only a rule's intent was keyed by its firing; a key given on the
        // command line may hold a `#` too.
        let intents = try Row.fetchAll(
            db, sql: "SELECT id, key FROM intent_log WHERE source LIKE 'rule:%' AND key IS NOT NULL")
        for row in intents {
            let key: String = row[1]
            guard let hash = key.lastIndex(of: "#") else { continue }
            try db.execute(
                sql: "UPDATE intent_log SET firing = ? WHERE id = ?", arguments: [String(key[..<hash]), row[0]])
        }
        try db.execute(sql: "PRAGMA user_version = 12")
    }

    /// `rule "x" (Name): focus deep on at 2026-…` → `focus deep on`: what
    /// follows the first `: ` up to the last ` at `.
    static func trigger(in description: String) -> String {
        var text = Substring(description)
        if let colon = text.firstRange(of: ": ") { text = text[colon.upperBound...] }
        if let at = text.lastRange(of: " at ") { text = text[..<at.lowerBound] }
        return String(text)
    }
}

extension Substring {
    /// The last range of `needle`, without Foundation.
    fileprivate func lastRange(of needle: String) -> Range<Index>? {
        var found: Range<Index>?
        var rest = self[...]
        while let range = rest.firstRange(of: needle) {
            found = range
            rest = rest[index(after: range.lowerBound)...]
        }
        return found
    }
}
