import Foundation
import TrackeeTestSupport

/// An HTTP answer as curl got it: the status, the header lines of the
/// last response, the body bytes, and curl's own exit status.
struct Answer: CustomStringConvertible {
    var status: Int
    var headerText: String
    var body: Data
    var exitStatus: Int32
    var stderr: String

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The value of header `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        let wanted = name.lowercased() + ":"
        for line in headerText.components(separatedBy: "\r\n") where line.lowercased().hasPrefix(wanted) {
            return line.dropFirst(wanted.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    func json() throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: body) }

    var description: String { "\(status) (curl \(exitStatus)) \(text) \(stderr)" }
}

/// Problem bodies (RFC 9457) as the server writes them: keys sorted.
func problem(_ status: Int, _ kind: String, _ title: String, _ detail: String) -> JSONValue {
    .object([
        "type": .string("urn:trackee:problem:\(kind)"), "title": .string(title), "status": .number(Double(status)),
        "detail": .string(detail),
    ])
}

/// curl run as a process, its output through files of the sandbox.
enum Curl {
    static let executable = "/usr/bin/curl"

    /// Runs `curl -sS -o body -D headers -w '%{http_code}' arguments…`.
    static func run(_ arguments: [String], in t: Sandbox) async throws -> Answer {
        let id = UUID().uuidString
        let bodyFile = try t.write("", to: "curl/\(id).body")
        let headerFile = try t.write("", to: "curl/\(id).headers")
        defer {
            try? FileManager.default.removeItem(atPath: bodyFile)
            try? FileManager.default.removeItem(atPath: headerFile)
        }
        let run = try await ChildProcess.run(
            executable, ["-sS", "-o", bodyFile, "-D", headerFile, "-w", "%{http_code}"] + arguments, in: t)
        // -D holds every response of the transfer (a 100 Continue too): the last counts.
        let headers = String(decoding: try t.bytes(headerFile), as: UTF8.self)
        let blocks = headers.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
        return Answer(
            status: Int(run.stdout) ?? 0, headerText: blocks.last ?? "", body: try t.bytes(bodyFile),
            exitStatus: run.status, stderr: run.stderr)
    }
}
