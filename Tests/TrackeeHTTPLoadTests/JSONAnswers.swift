import Foundation

/// What a client script printed or wrote, read as JSON: the scripts'
/// outputs are plain arrays and objects of strings and numbers.
enum JSONAnswers {
    struct Unreadable: Error, CustomStringConvertible {
        var text: String
        var description: String { "not the JSON a client writes: \(text.prefix(2000))" }
    }

    static func parse(_ data: Data) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw Unreadable(text: String(decoding: data, as: UTF8.self))
        }
    }

    /// A JSON object's fields from a string holding one (an answer's body).
    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
