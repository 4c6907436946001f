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

    /// `~/x` with `$HOME`; other paths as they are.
    public static func expandingHome(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    private static func base(_ variable: String, default relative: String, _ environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return (environment["HOME"] ?? "/") + "/" + relative
    }
}
