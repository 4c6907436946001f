import Foundation
import Testing
import TrackeeTestSupport

/// `make deb-package` makes trackee's Debian package, which installs on this
/// machine with apt, works there (`trackee --version`, the systemd user
/// unit passes `systemd-analyze verify`) and purges without a trace. The
/// package is made from the debug binaries the other tests run (BIN,
/// SYNC_BIN and DAEMON_BIN on the command line, as `make install` takes
/// them), uncompressed, so the test needs no release build (it takes 17 s
/// of CPU, 35 to 60 s on a busy two-core machine); `make deb` makes the
/// real one the same way from the release binaries (README, "Set up"). It
/// needs root, and is skipped, saying why, when trackee is already
/// installed: it will not replace an installation.
@Suite struct DebPackageTests {
    /// #filePath is <root>/Tests/TrackeeCLITests/DebPackageTests.swift.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// dpkg and apt-get need the sbin directories (ldconfig, start-stop-daemon).
    static let environment = [
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
        "DEBIAN_FRONTEND": "noninteractive",
    ]

    /// The programs the test runs, by name, where they are (those not
    /// found missing).
    static let toolNames = ["make", "dpkg", "dpkg-deb", "dpkg-query", "apt-get", "systemd-analyze", "gzip", "find"]
    static let tools: [String: String] = {
        var found: [String: String] = [:]
        for name in toolNames {
            found[name] = ["/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"].map { $0 + name }
                .first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        return found
    }()

    /// Every file the package installs: the programs, the manuals and
    /// completions as `make install` puts them (zsh's where Debian's zsh
    /// looks), the user unit, lintian's overrides, and README, the
    /// recipes, the copyright file and the changelog as documentation,
    /// those over 4 kB compressed (Debian policy 12.3).
    static func packaged() throws -> Set<String> {
        var files: Set<String> = [
            "/usr/bin/trackee", "/usr/bin/trackee-sync", "/usr/bin/trackee-daemon", "/usr/bin/trackee-report",
            "/usr/share/man/man1/trackee.1.gz", "/usr/share/man/man5/trackee-rules.5.gz",
            "/usr/share/bash-completion/completions/trackee", "/usr/share/zsh/vendor-completions/_trackee",
            "/usr/share/fish/vendor_completions.d/trackee.fish",
            "/usr/lib/systemd/user/trackee.service",
            "/usr/share/lintian/overrides/trackee",
            "/usr/share/doc/trackee/README.md.gz", "/usr/share/doc/trackee/copyright",
            "/usr/share/doc/trackee/changelog.gz",
        ]
        let recipes = repository.appendingPathComponent("recipes")
        let enumerator = FileManager.default.enumerator(atPath: recipes.path)
        while let relative = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: recipes.appendingPathComponent(relative).path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            files.insert("/usr/share/doc/trackee/recipes/" + relative + (size > 4096 ? ".gz" : ""))
        }
        return files
    }

    /// The folders the package puts files in, and dpkg's and apt's records
    /// of packages: every path under them is listed before the package is
    /// installed and after it is purged, and the lists must be the same.
    static let watched = [
        "/usr/bin", "/usr/share/man", "/usr/share/bash-completion", "/usr/share/zsh", "/usr/share/fish",
        "/usr/lib/systemd", "/usr/share/lintian", "/usr/share/doc", "/var/lib/dpkg/info", "/var/cache/apt/archives",
    ]

    @Test func theDebianPackageInstallsWorksAndPurgesWithoutATrace() throws {
        try Self.skip(unless: getuid() == 0, "it installs a package on this machine, which needs root")
        let missing = Self.toolNames.filter { Self.tools[$0] == nil }
        try Self.skip(unless: missing.isEmpty, "it needs \(missing.joined(separator: ", ")), which this machine does not have")
        let trackee = try TrackeeBinary.path()
        let built = URL(fileURLWithPath: trackee).deletingLastPathComponent()
        let sync = built.appendingPathComponent("trackee-sync").path
        let daemon = built.appendingPathComponent("trackee-daemon").path
        try #require(FileManager.default.isExecutableFile(atPath: sync), "trackee-sync is missing beside \(trackee)")
        try #require(FileManager.default.isExecutableFile(atPath: daemon), "trackee-daemon is missing beside \(trackee)")
        let report = built.appendingPathComponent("trackee-report").path
        try #require(FileManager.default.isExecutableFile(atPath: report), "trackee-report is missing beside \(trackee)")

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let version = try Self.run(trackee, ["--version"], in: work)
        try #require(version.status == 0)
        // `trackee --version` prints the version alone, the package's.
        let versionNumber = version.stdout.trimmingCharacters(in: .newlines)

        // One run of this test at a time on the machine (another checkout's
        // `make test` may be at it): a lock that dpkg itself does not take
        // (it locks files in the folder, with fcntl), released when the
        // descriptor closes.
        let lock = open("/var/lib/dpkg", O_RDONLY | O_DIRECTORY)
        try #require(lock >= 0, "cannot open /var/lib/dpkg")
        defer { close(lock) }
        try #require(flock(lock, LOCK_EX) == 0)

        let known = try Self.run(Self.tool("dpkg-query"), ["-W", "-f", "${Status}", "trackee"], in: work)
        try Self.skip(unless: known.status != 0 || known.stdout.hasSuffix(" not-installed"),
                      "a package named trackee is on this machine (\(known.stdout)); the test will not replace it")
        let files = try Self.packaged()
        let taken = files.filter { FileManager.default.fileExists(atPath: $0) }.sorted()
        try Self.skip(unless: taken.isEmpty, "files the package holds are already on this machine (\(taken.joined(separator: ", "))); the test will not overwrite them")
        let before = try Self.listing(in: work)

        // The package, from the debug binaries.
        let deb = work.appendingPathComponent("trackee.deb").path
        var environment = Self.environment
        environment["DEB_COMPRESSION"] = "-Znone"
        // The debug binaries load the Swift runtime from the toolchain,
        // which no Debian package holds.
        environment["DEB_SHLIBDEPS_FLAGS"] = "--ignore-missing-info"
        let make = try runProgram(Self.tool("make"), [
            "-C", Self.repository.path, "deb-package", "BIN=\(trackee)", "SYNC_BIN=\(sync)", "DAEMON_BIN=\(daemon)",
            "REPORT_BIN=\(report)", "DEB=\(deb)", "DEB_WORK=\(work.appendingPathComponent("tree").path)",
        ], environment: environment.merging(["HOME": work.path]) { $1 }, in: work)
        try #require(make.status == 0, "make deb-package → \(make.status)\n\(make.stdout)\(make.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("tree").path), "make deb-package left its tree")

        let fields = try Self.run(Self.tool("dpkg-deb"), ["--field", deb, "Package", "Version", "Architecture", "Section"], in: work)
        let architecture = try Self.run(Self.tool("dpkg"), ["--print-architecture"], in: work).stdout
        #expect(fields.stdout == "Package: trackee\nVersion: \(versionNumber)\nArchitecture: \(architecture)Section: utils\n")
        // Depends is what the binaries load: trackee-sync libcurl,
        // trackee-report cairo and libxlsxwriter, all of them (the debug
        // builds) the C library; never the toolchain.
        let depends = try Self.run(Self.tool("dpkg-deb"), ["--field", deb, "Depends"], in: work).stdout
        let dependedOn = Set(depends.split(whereSeparator: { ",|\n".contains($0) })
            .compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(dependedOn.isSuperset(of: ["libc6", "libcurl4", "libcairo2", "libxlsxwriter4"]), "Depends: \(depends)")
        #expect(!depends.contains("swift"), "Depends: \(depends)")

        let contents = try Self.run(Self.tool("dpkg-deb"), ["--contents", deb], in: work)
        try #require(contents.status == 0, "dpkg-deb --contents → \(contents.status): \(contents.stderr)")
        // Lines look like "-rwxr-xr-x root/root 1234 2026-11-28 22:00 ./usr/bin/trackee".
        let modes = Dictionary(uniqueKeysWithValues: contents.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let mode = columns.first, mode.hasPrefix("-"), let path = columns.last else { return nil }
            #expect(columns[1] == "root/root", "\(path) is not root's")
            return (String(path.dropFirst()), String(mode))
        })
        #expect(Set(modes.keys) == files)
        #expect(modes.filter { $0.value == "-rwxr-xr-x" }.keys.sorted() == ["/usr/bin/trackee", "/usr/bin/trackee-daemon", "/usr/bin/trackee-report", "/usr/bin/trackee-sync"])
        #expect(Set(modes.values) == ["-rwxr-xr-x", "-rw-r--r--"])

        // Installed with apt, which installs what it depends on first.
        var installed = false
        defer { if installed { _ = try? Self.purge(in: work) } }
        let install = try runProgram(Self.tool("apt-get"), ["install", "-y", "-q", "-o", "DPkg::Lock::Timeout=600", deb],
                                     environment: Self.environment, in: work)
        installed = true
        try #require(install.status == 0, "apt-get install → \(install.status)\n\(install.stdout)\(install.stderr)")
        #expect(try Self.run(Self.tool("dpkg-query"), ["-W", "-f", "${Status} ${Version}", "trackee"], in: work).stdout
            == "install ok installed \(versionNumber)")
        let listed = try Self.run(Self.tool("dpkg"), ["--listfiles", "trackee"], in: work).stdout.split(separator: "\n")
            .map(String.init).filter { !Self.isDirectory($0) }
        #expect(Set(listed) == files)

        for program in ["/usr/bin/trackee", "/usr/bin/trackee-daemon"] {
            let run = try Self.run(program, ["--version"], in: work)
            #expect(run.status == 0, "\(program) --version → \(run.status): \(run.stderr)")
            #expect(run.stdout == version.stdout, "\(program) --version")
        }
        let unit = try String(contentsOfFile: "/usr/lib/systemd/user/trackee.service", encoding: .utf8)
        #expect(unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") } == ["ExecStart=/usr/bin/trackee run"])
        // verify also checks that ExecStart's program exists and that the
        // Documentation= pages open with man(1), here the installed ones.
        let runtime = work.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let hasMan = FileManager.default.isExecutableFile(atPath: "/usr/bin/man")
        if !hasMan { print("man(1) is not installed; the unit's Documentation= is not checked") }
        let verify = try runProgram(Self.tool("systemd-analyze"),
                                    ["verify", "--user"] + (hasMan ? [] : ["--man=no"]) + ["/usr/lib/systemd/user/trackee.service"],
                                    environment: Self.environment.merging(["HOME": work.path, "XDG_RUNTIME_DIR": runtime.path]) { $1 },
                                    in: work)
        #expect(verify.stdout + verify.stderr == "")
        #expect(verify.status == 0)
        let readme = try Self.run(Self.tool("gzip"), ["-dc", "/usr/share/doc/trackee/README.md.gz"], in: work)
        #expect(readme.stdout == (try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)))

        let purge = try Self.purge(in: work)
        installed = false
        #expect(purge.status == 0, "dpkg --purge → \(purge.status)\n\(purge.stdout)\(purge.stderr)")
        let gone = try Self.run(Self.tool("dpkg-query"), ["-W", "-f", "${Status}", "trackee"], in: work)
        #expect(gone.status == 1)
        #expect(gone.stderr == "dpkg-query: no packages found matching trackee\n")
        let list = try Self.run(Self.tool("dpkg"), ["--listfiles", "trackee"], in: work)
        #expect(list.status == 1)
        #expect(list.stderr == "dpkg-query: package 'trackee' is not installed\nUse dpkg --contents (= dpkg-deb --contents) to list archive files contents.\n")
        #expect(files.filter { FileManager.default.fileExists(atPath: $0) }.sorted() == [])
        let after = try Self.listing(in: work)
        #expect(after.subtracting(before).sorted() == [], "left behind")
        #expect(before.subtracting(after).sorted() == [], "removed")
    }

    /// Purges the package with dpkg.
    static func purge(in work: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(tool("dpkg"), ["--purge", "trackee"], environment: environment, in: work)
    }

    /// Every path under the watched folders, as find(1) lists them.
    static func listing(in work: URL) throws -> Set<String> {
        let find = try run(tool("find"), watched.filter { FileManager.default.fileExists(atPath: $0) }, in: work)
        try #require(find.status == 0, "find → \(find.status): \(find.stderr)")
        return Set(find.stdout.split(separator: "\n").map(String.init))
    }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    static func tool(_ name: String) throws -> String { try #require(tools[name], "\(name) is not installed") }

    /// Cancels the test, saying why, unless `condition` holds.
    static func skip(unless condition: Bool, _ reason: String) throws {
        guard !condition else { return }
        print("DebPackageTests skipped: \(reason)")
        try Test.cancel(Comment(rawValue: reason))
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL)
        throws -> (status: Int32, stdout: String, stderr: String)
    {
        try runProgram(executable, arguments, environment: environment.merging(["HOME": directory.path]) { $1 }, in: directory)
    }
}
