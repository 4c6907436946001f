import Foundation
import TrackeeCore

/// Writes results to stdout: text for people, JSON for programs, styled as
/// ``TextStyle`` decides (colour only on a terminal, never with NO_COLOR).
struct Output {
    let json: Bool
    let style: TextStyle

    init(environment: [String: String], json: Bool) {
        self.json = json
        style = TextStyle(environment: environment, json: json, terminal: isatty(1) == 1)
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

    func bold(_ s: String) -> String { style.bold(s) }
    func dim(_ s: String) -> String { style.dim(s) }
    func green(_ s: String) -> String { style.green(s) }
    func yellow(_ s: String) -> String { style.yellow(s) }
}
