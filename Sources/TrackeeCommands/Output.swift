import Foundation
import TrackeeCore

/// Writes results to stdout: text for people, JSON for programs. Colour
/// only on a terminal, and never when NO_COLOR is set (no-color.org).
struct Output {
    let json: Bool
    let color: Bool

    init(environment: [String: String], json: Bool) {
        self.json = json
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        color = !json && !noColor && environment["TERM"] != "dumb" && isatty(1) == 1
    }

    func line(_ text: String = "") {
        writeAll(1, text + "\n")
    }

    func emit<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Our JSON views hold strings, numbers and bools only.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        writeAll(1, String(decoding: data, as: UTF8.self) + "\n")
    }

    func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func dim(_ s: String) -> String { color ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    func green(_ s: String) -> String { color ? "\u{1B}[32m\(s)\u{1B}[0m" : s }
    func yellow(_ s: String) -> String { color ? "\u{1B}[33m\(s)\u{1B}[0m" : s }
}
