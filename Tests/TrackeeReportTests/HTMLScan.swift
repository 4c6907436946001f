import Foundation

/// Reads back what the tests need from the HTML report: an SVG's bars
/// with their attributes, a table's rows as the texts of their cells.
/// Enough for the renderer's own output, which quotes every attribute
/// with `"` and escapes `"` inside values; not an HTML parser.
enum HTMLScan {
    /// From `<tag id="ID"` to the first `</tag>` after it.
    static func element(_ html: String, _ tag: String, id: String) -> Substring? {
        guard let start = html.range(of: "<\(tag) id=\"\(id)\""),
            let end = html[start.upperBound...].range(of: "</\(tag)>")
        else { return nil }
        return html[start.lowerBound..<end.upperBound]
    }

    /// The attributes of every `<name …>` tag in `text`, in order.
    static func tags(_ name: String, in text: Substring) -> [[String: String]] {
        var found: [[String: String]] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(name) ") {
            guard let close = rest[open.upperBound...].firstIndex(of: ">") else { break }
            found.append(attributes(rest[open.upperBound..<close]))
            rest = rest[close...]
        }
        return found
    }

    /// `a="1" b="x y"` as `["a": "1", "b": "x y"]`.
    static func attributes(_ text: Substring) -> [String: String] {
        var values: [String: String] = [:]
        var rest = text
        while let eq = rest.range(of: "=\"") {
            let name = rest[..<eq.lowerBound].split(separator: " ").last.map(String.init) ?? ""
            guard let endQuote = rest[eq.upperBound...].firstIndex(of: "\"") else { break }
            values[name] = String(rest[eq.upperBound..<endQuote])
            rest = rest[rest.index(after: endQuote)...]
        }
        return values
    }

    /// Each `<tr>` of the table with that id, as its cells' texts (tags
    /// removed, character references kept as written).
    static func rows(_ html: String, table id: String) -> [[String]] {
        guard let table = element(html, "table", id: id) else { return [] }
        return table.components(separatedBy: "<tr").dropFirst().map { row in
            var cells: [String] = []
            var rest = row[...]
            while let open = rest.range(of: "<t[dh][ >]", options: .regularExpression) {
                let tag = rest[rest.index(after: open.lowerBound)..<rest.index(open.lowerBound, offsetBy: 3)]
                guard let close = rest[open.upperBound...].range(of: "</\(tag)>") else { break }
                cells.append(text(rest[open.lowerBound..<close.lowerBound]))
                rest = rest[close.upperBound...]
            }
            return cells
        }
    }

    /// `text` without its tags.
    static func text(_ text: Substring) -> String {
        var out = ""
        var inTag = false
        for c in text {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
        }
        return out
    }

    /// How many times `needle` occurs in `haystack`.
    static func count(_ needle: String, in haystack: some StringProtocol) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }
}
