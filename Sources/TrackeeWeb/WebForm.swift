import Foundation
import TrackeeAPI

/// A form's fields as a browser posts them
/// (`application/x-www-form-urlencoded`): `+` is a space, `%XX` a byte of
/// UTF-8. A body of another type, or bytes that are not UTF-8, is refused
/// (415, 400): the page's own forms send nothing else.
struct WebForm: Equatable {
    var fields: [(String, String)]

    static func == (a: WebForm, b: WebForm) -> Bool { a.fields.map { [$0.0, $0.1] } == b.fields.map { [$0.0, $0.1] } }

    init(fields: [(String, String)]) {
        self.fields = fields
    }

    init(_ request: APIRequest) throws(Problem) {
        let type = request.header("Content-Type")?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard request.body.isEmpty || type == "application/x-www-form-urlencoded" else {
            throw Problem(
                status: 415, kind: "unsupported-media-type", title: "Unsupported media type",
                detail: "The page's forms are sent as application/x-www-form-urlencoded, not \(type ?? "without a type").")
        }
        guard let text = String(validating: request.body, as: UTF8.self) else {
            throw Problem.badRequest("bad-form", "The form's bytes are not UTF-8.")
        }
        var fields: [(String, String)] = []
        for pair in URLEncoded.pairs(text[...]) {
            guard let name = URLEncoded.decoded(pair.name), let value = URLEncoded.decoded(pair.value) else {
                throw Problem.badRequest("bad-form", "The form's field \(pair.name.prefix(40)) is not percent-encoded UTF-8.")
            }
            fields.append((name, value))
        }
        self.fields = fields
    }

    /// The first value of `name`.
    subscript(_ name: String) -> String? {
        fields.first { $0.0 == name }?.1
    }

    /// The value of `name` without white space around it; nil when absent
    /// or blank.
    func text(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// Tags as a person types them: separated by commas or spaces, a `#`
    /// before one left out.
    static func tags(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map { word in
            word.hasPrefix("#") ? String(word.dropFirst()) : String(word)
        }.filter { !$0.isEmpty }
    }
}
