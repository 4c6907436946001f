import TrackeeCore

/// A trigger fed by the machine at the desk (`idle`, `session`, `sleep`,
/// `network`, `power`, `device`): its events come when the machine
/// changes, never at a time known ahead, so `rules next` has nothing to
/// list for it.
public protocol DeskTrigger: RuleTrigger {
    /// The kind as rule files name it.
    var kindName: String { get }
}

extension RuleFileReader {
    /// One word of `words`, such as `locked`; another word is reported with
    /// the nearest one (`unknown session state "lockd"; did you mean "locked"?`).
    func word<Word: RawRepresentable & CaseIterable>(_ value: YAMLValue, _ noun: String) -> Word?
    where Word.RawValue == String {
        guard let text = string(value) else { return nil }
        if let word = Word(rawValue: text) { return word }
        failUnknown(text, at: value, noun: noun, known: Word.allCases.map(\.rawValue))
        return nil
    }

    /// A length of more than 0s, such as `10m`.
    func positiveDuration(_ value: YAMLValue, _ what: String) -> Int64? {
        parsed(value) { (text: String) throws(InvalidValue) in
            let seconds = try parseDuration(text).components.seconds
            guard seconds > 0 else { throw InvalidValue("\(what) must be longer than 0s, found \"\(text)\"") }
            return seconds
        }
    }
}

/// A length as a rule file writes it: `10m`, `1h30m`.
func durationText(_ seconds: Int64) -> String {
    var rest = seconds
    var text = ""
    for (letter, unit) in [("d", Int64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where rest >= unit {
        text += "\(rest / unit)\(letter)"
        rest %= unit
    }
    return text.isEmpty ? "0s" : text
}
