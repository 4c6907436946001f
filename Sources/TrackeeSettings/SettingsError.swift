/// A mistake in the settings file: one sentence naming the file, the line
/// and the key, and what the key takes. The commands refuse it with exit
/// status 78.
public struct SettingsError: Error, Equatable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
