import Foundation
import TrackeeCore
import TrackeeRules

/// Where rule files live and reading them: `--rules PATH` (repeatable)
/// when given, else `$XDG_CONFIG_HOME/trackee/rules.yaml` and then
/// `rules.d/*.yaml` in name order. Without any of them there are simply no
/// rules.
public enum RuleFiles {
    /// The files to read, in order. Explicit paths are returned as given,
    /// so a missing one is an error when read; default ones only if they
    /// exist.
    public static func paths(explicit: [String], environment: [String: String]) -> [String] {
        if !explicit.isEmpty { return explicit }
        let directory = XDGDirectories.config(environment: environment)
        var paths: [String] = []
        let main = directory + "/rules.yaml"
        if FileManager.default.fileExists(atPath: main) { paths.append(main) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/rules.d")) ?? []
        paths += names.filter { $0.hasSuffix(".yaml") && !$0.hasPrefix(".") }.sorted().map { directory + "/rules.d/" + $0 }
        return paths
    }

    /// The folders whose changes mean the rules may have changed (for
    /// reloading): the config folder and `rules.d`, or the folders of
    /// explicit files.
    public static func watchedDirectories(explicit: [String], environment: [String: String]) -> [String] {
        if !explicit.isEmpty {
            return Array(Set(explicit.map { ($0 as NSString).deletingLastPathComponent })).map { $0.isEmpty ? "." : $0 }.sorted()
        }
        let directory = XDGDirectories.config(environment: environment)
        return [directory, directory + "/rules.d"]
    }

    /// File names that matter in a rule folder: rule files, not editor
    /// droppings, and the `rules.d` folder itself.
    public static func matters(_ name: String) -> Bool {
        (name.hasSuffix(".yaml") && !name.hasPrefix(".")) || name == "rules.d"
    }

    /// Reads the files; one that cannot be read is an error sentence and is
    /// left out.
    public static func read(_ paths: [String]) -> (files: [RuleFile], errors: [String]) {
        var files: [RuleFile] = []
        var errors: [String] = []
        for path in paths {
            do {
                files.append(RuleFile(path: path, text: try String(contentsOfFile: path, encoding: .utf8)))
            } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
                errors.append("\(path): no such rule file")
            } catch let error as CocoaError where error.code == .fileReadInapplicableStringEncoding {
                errors.append("\(path): not UTF-8 text")
            } catch {
                errors.append("\(path): cannot read the rule file (\(error.localizedDescription))")
            }
        }
        return (files, errors)
    }
}
