import Foundation
import TrackeeReport

/// `trackee-report --format pdf|xlsx -o PATH`: reads one ``Report`` as JSON
/// (snake_case keys) on stdin and writes it as a PDF or a workbook. It is
/// what `trackee report --format pdf|xlsx` runs, so that `trackee` itself
/// links neither cairo nor libxlsxwriter.
///
/// The file is made beside PATH under a hidden name and renamed over it
/// once complete, so an existing file is replaced only by a whole one;
/// `-o -` writes to stdout.
public enum ReportFileTool {
    /// Exit statuses (sysexits.h), as trackee(1) lists them for `report`.
    public static let usage: Int32 = 64, badInput: Int32 = 65, cannotCreate: Int32 = 73,
        ioError: Int32 = 74

    public enum Format: String, CaseIterable, Sendable {
        case pdf, xlsx
    }

    static let usageLine = "usage: trackee-report --format pdf|xlsx -o PATH, with a report's JSON on stdin"
        + " (trackee report --format pdf|xlsx runs it; see trackee(1))"

    /// Runs the tool: `arguments` without the program's name, `input` the
    /// whole of stdin. Returns the exit status; every failure has written
    /// its one sentence to stderr.
    public static func main(_ arguments: [String], input: () -> Data) -> Int32 {
        if arguments == ["--help"] || arguments == ["-h"] {
            print(usageLine)
            return 0
        }
        var format: Format?
        var output: String?
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard let value = rest.popFirst(), option == "--format" || option == "-o" || option == "--output" else {
                fail(usageLine)
                return usage
            }
            if option == "--format" {
                guard let f = Format(rawValue: value) else {
                    fail("unknown format \(value): trackee-report writes pdf or xlsx")
                    return usage
                }
                format = f
            } else {
                output = value
            }
        }
        guard let format, let output, !output.isEmpty else {
            fail(usageLine)
            return usage
        }
        let report: Report
        do { report = try decode(input()) } catch {
            fail(error.message)
            return badInput
        }
        do {
            try OutputFile.write(to: output, suffix: "." + format.rawValue) { (path: String) throws(ToolError) in
                switch format {
                case .pdf: try PDFReport.write(report, to: path)
                case .xlsx: try XLSXReport.write(report, to: path)
                }
            }
        } catch {
            fail(error.message)
            return error.status
        }
        return 0
    }

    /// The report in `data`, or one sentence saying what is wrong and where.
    public static func decode(_ data: Data) throws(ToolError) -> Report {
        guard data.contains(where: { !($0 == 32 || $0 == 10 || $0 == 13 || $0 == 9) }) else {
            throw ToolError("no report on stdin: it was empty (trackee report --format pdf|xlsx writes one)")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(Report.self, from: data)
        } catch let error as DecodingError {
            // JSONDecoder does not say where the syntax breaks; JSONSerialization does.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
               let place = syntaxError(data) {
                throw ToolError("the report on stdin is not valid JSON (\(place))")
            }
            throw ToolError("the report on stdin " + describe(error))
        } catch {
            throw ToolError("the report on stdin cannot be read: \(error)")
        }
    }

    /// `lacks total.seconds`, `is not valid JSON (unexpected end of file)`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + snakeCase(key.stringValue)
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "lacks \(path(context.codingPath + [key]))"
        case .valueNotFound(_, let context):
            return "has null at \(path(context.codingPath)), where a value is needed"
        case .typeMismatch(let type, let context):
            return "has a value of the wrong type at \(path(context.codingPath)): expected \(typeName(type))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "is not valid JSON"
        case .dataCorrupted(let context):
            return "has an invalid value at \(path(context.codingPath)): \(lowercasedFirst(context.debugDescription))"
        @unknown default:
            return "cannot be read: \(error)"
        }
    }

    /// `unexpected end of file during JSON parse`, `invalid value around character 6`.
    static func syntaxError(_ data: Data) -> String? {
        do { _ = try JSONSerialization.jsonObject(with: data) } catch {
            guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return nil }
            return lowercasedFirst(detail.trimmingCharacters(in: CharacterSet(charactersIn: ". ")))
        }
        return nil
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int64.Type, is Int.Type: return "an integer"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object (\(name))"
        }
    }

    /// The JSON's own spelling of a key the decoder names in camelCase.
    static func snakeCase(_ key: String) -> String {
        var out = ""
        for c in key {
            if c.isUppercase {
                out += "_" + c.lowercased()
            } else {
                out.append(c)
            }
        }
        return out
    }

    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data(("trackee: " + message + "\n").utf8))
    }
}

/// One sentence for stderr and the exit status that goes with it.
public struct ToolError: Error, Sendable {
    public var message: String
    public var status: Int32

    public init(_ message: String, status: Int32 = ReportFileTool.badInput) {
        self.message = message
        self.status = status
    }
}
