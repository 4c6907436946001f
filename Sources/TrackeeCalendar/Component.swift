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

    /// Builds the calendars (normally one VCALENDAR, but a file may hold
    /// several) from content lines.
    ///
    /// What other programs get wrong here is read past, each with a
    /// warning: events with no VCALENDAR around them are read as one
    /// calendar; a component iCalendar does not define around the calendar
    /// is looked into; an END that names another component closes the
    /// innermost one open (a misspelling), or every one up to the
    /// component it names; a file whose last END:VCALENDAR is missing is
    /// read as if it were there. Only a file that ends inside an event or
    /// another inner component is an error: it is most likely being
    /// written at this moment, and the next read will see it whole.
    static func tree(_ lines: [ContentLine], warnings: inout [LineWarning]) throws(LineError) -> [Component] {
        var roots: [Component] = []
        /// Where events found outside any VCALENDAR go, in `roots`.
        var implicitRoot: Int?
        var stack: [Component] = []

        /// Files away a component that has just been closed.
        func closed(_ component: Component) {
            if !stack.isEmpty {
                stack[stack.count - 1].children.append(component)
            } else if component.name == "VCALENDAR" {
                roots.append(component)
            } else if standard.contains(component.name) {
                if implicitRoot == nil {
                    warnings.append(LineWarning(line: component.line,
                        "BEGIN:\(component.name) outside BEGIN:VCALENDAR … END:VCALENDAR; read as if inside one"))
                    implicitRoot = roots.count
                    roots.append(Component(name: "VCALENDAR", line: component.line))
                }
                roots[implicitRoot!].children.append(component)
            } else {
                // Around the calendar: its calendars and events are read as if it were not there.
                warnings.append(LineWarning(line: component.line,
                    "BEGIN:\(component.name) is not an iCalendar component; read the calendars and events inside it"))
                for child in component.children { closed(child) }
            }
        }

        for line in lines {
            switch line.name {
            case "BEGIN":
                let name = line.value.trimmingWhitespace().uppercased()
                guard !name.isEmpty else {
                    warnings.append(LineWarning(line: line.line, "BEGIN without a component name; skipped the line"))
                    continue
                }
                if name == "VEVENT", let open = stack.last, open.name == "VEVENT" {
                    warnings.append(LineWarning(line: line.line,
                        "BEGIN:VEVENT inside the VEVENT begun on line \(open.line), which has no END:VEVENT; ended that one here"))
                    closed(stack.removeLast())
                }
                stack.append(Component(name: name, line: line.line))
            case "END":
                let name = line.value.trimmingWhitespace().uppercased()
                guard let open = stack.last else {
                    warnings.append(LineWarning(line: line.line, "END:\(line.value) without a matching BEGIN; skipped the line"))
                    continue
                }
                if open.name == name {
                    closed(stack.removeLast())
                } else if let match = stack.lastIndex(where: { $0.name == name }) {
                    let unclosed = stack[(match + 1)...].map { "\($0.name) (line \($0.line))" }.joined(separator: ", ")
                    warnings.append(LineWarning(line: line.line,
                        "END:\(line.value) comes before the END of \(unclosed); ended \(stack.count - match > 2 ? "them" : "it") here"))
                    while stack.count > match { closed(stack.removeLast()) }
                } else {
                    warnings.append(LineWarning(line: line.line,
                        "END:\(line.value) does not close BEGIN:\(open.name) on line \(open.line); taken as its END"))
                    closed(stack.removeLast())
                }
            default:
                guard !stack.isEmpty else {
                    warnings.append(LineWarning(line: line.line,
                        "\(line.name) outside BEGIN:VCALENDAR … END:VCALENDAR; skipped the property"))
                    continue
                }
                stack[stack.count - 1].properties.append(line)
            }
        }
        if let inner = stack.last(where: { $0.name != "VCALENDAR" && standard.contains($0.name) }) {
            throw LineError(
                line: lines.last?.line ?? inner.line,
                message: "the file ends inside \(inner.name) begun on line \(inner.line); is it cut off?")
        }
        while let open = stack.popLast() {
            warnings.append(LineWarning(line: lines.last?.line ?? open.line,
                "the file ends without END:\(open.name) for BEGIN:\(open.name) on line \(open.line); read as if it were there"))
            closed(open)
        }
        return roots
    }

    /// The components RFC 5545 and its extensions define; any other name
    /// is a component trackee looks into but does not know.
    static let standard: Set<String> = [
        "VCALENDAR", "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "STANDARD", "DAYLIGHT", "VALARM",
        "VAVAILABILITY", "AVAILABLE", "PARTICIPANT", "VLOCATION", "VRESOURCE",
    ]

    /// The VEVENTs of this calendar, in file order, also those inside
    /// components iCalendar does not define (as other readers take them),
    /// but not those inside another event or a standard component.
    var events: [Component] {
        var found: [Component] = []
        for child in children {
            if child.name == "VEVENT" {
                found.append(child)
            } else if !Self.standard.contains(child.name) {
                found += child.events
            }
        }
        return found
    }
}
