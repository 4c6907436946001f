/// Where trackee keeps its files, by the XDG base directory rules: a
/// variable counts only when it holds an absolute path, else the default
/// under `$HOME`.
///
/// ```swift
/// XDGDirectories.config(environment: ["HOME": "/home/ana"]) // "/home/ana/.config/trackee"
/// ```
public enum XDGDirectories {
    /// `$XDG_CONFIG_HOME/trackee`, or `~/.config/trackee`.
    public static func config(environment: [String: String]) -> String {
        base("XDG_CONFIG_HOME", default: ".config", environment) + "/trackee"
    }

    /// `$XDG_DATA_HOME/trackee`, or `~/.local/share/trackee`.
    public static func data(environment: [String: String]) -> String {
        base("XDG_DATA_HOME", default: ".local/share", environment) + "/trackee"
    }

    private static func base(_ variable: String, default relative: String, _ environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return (environment["HOME"] ?? "/") + "/" + relative
    }
}
