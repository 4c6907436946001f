/// One `BEGIN:NAME` … `END:NAME` block with its properties and nested
/// blocks, as the content lines give them.
struct Component: Sendable {
    /// Upper-cased: `VCALENDAR`, `VEVENT`, `VTIMEZONE`, `STANDARD`.
    var name: String
    /// The line of its BEGIN.
    var line: Int
    var properties: [ContentLine] = []
    var children: [Component] = []

    /// The first property called `name`.
    func property(_ name: String) -> ContentLine? {
        properties.first { $0.name == name }
    }

    /// Builds the top-level components (normally one VCALENDAR, but a file
    /// may hold several) from content lines, checking that every BEGIN has
    /// its END.
    static func tree(_ lines: [ContentLine]) throws(LineError) -> [Component] {
        var roots: [Component] = []
        var stack: [Component] = []
        for line in lines {
            switch line.name {
            case "BEGIN":
                let name = line.value.uppercased()
                guard !name.isEmpty else { throw LineError(line: line.line, message: "BEGIN without a component name") }
                if stack.isEmpty && name != "VCALENDAR" {
                    throw LineError(line: line.line, message: "expected BEGIN:VCALENDAR, found BEGIN:\(line.value)")
                }
                stack.append(Component(name: name, line: line.line))
            case "END":
                let name = line.value.uppercased()
                guard let open = stack.popLast() else {
                    throw LineError(line: line.line, message: "END:\(line.value) without a matching BEGIN")
                }
                guard open.name == name else {
                    throw LineError(
                        line: line.line,
                        message: "END:\(line.value) does not close BEGIN:\(open.name) on line \(open.line)")
                }
                if stack.isEmpty { roots.append(open) } else { stack[stack.count - 1].children.append(open) }
            default:
                guard !stack.isEmpty else {
                    throw LineError(line: line.line, message: "\(line.name) outside BEGIN:VCALENDAR … END:VCALENDAR")
                }
                stack[stack.count - 1].properties.append(line)
            }
        }
        if let open = stack.last {
            throw LineError(
                line: lines.last?.line ?? open.line,
                message: "the file ends inside \(open.name) begun on line \(open.line); is it cut off?")
        }
        return roots
    }
}
