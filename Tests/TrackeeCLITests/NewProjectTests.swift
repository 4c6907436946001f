import Foundation
import Testing
import TrackeeTestSupport

/// A typo must not create a project: `create_projects` decides what a
/// project name that does not exist does, `--new-project` says yes for one
/// command, and on a terminal `ask` asks.
@Suite struct NewProjectTests {
    /// A sandbox whose settings say `create_projects: setting` (nil: no
    /// settings file, so the default, `ask`) and whose store has Docs.
    private func sandbox(_ setting: String?) throws -> Sandbox {
        let t = try Sandbox(now: "2026-11-20 12:00", createProjects: setting)
        #expect(try t.run("projects", "add", "Docs").status == 0)
        return t
    }

    private func projects(_ t: Sandbox) throws -> [String] {
        try t.run("projects", "--json").json().elements.compactMap { $0["name"].string }
    }

    private static let refusal = failure(#"no project "Dcos"; did you mean "Docs"? (--new-project creates it)"#)

    /// Off a terminal, `ask` refuses as `never` does: start, add and edit
    /// each exit 1 with the nearest project, and change nothing.
    @Test(arguments: [nil, "ask", "never"])
    func aTypoIsRefusedWithTheNearestProject(setting: String?) throws {
        let t = try sandbox(setting)
        #expect(try t.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:00").status == 0)
        let before = t.storeFiles()
        for arguments in [
            ["start", "-p", "Dcos"],
            ["add", "-p", "Dcos", "--from", "10:00", "--to", "11:00"],
            ["edit", "1", "-p", "Dcos"],
        ] {
            let r = try t.run(arguments)
            #expect(r.status == 1, "\(r)")
            #expect(r.stdout == "")
            #expect(r.stderr == Self.refusal)
        }
        #expect(t.storeFiles() == before)
        #expect(try projects(t) == ["Docs"])
    }

    @Test func aNameNearNothingIsRefusedWithoutASuggestion() throws {
        let t = try sandbox("never")
        let r = try t.run("start", "-p", "Gardening", "-c", "Home")
        #expect(r.status == 1)
        #expect(r.stderr == failure(#"no project "Gardening" under client "Home" (--new-project creates it)"#))
        #expect(try t.run("clients", "--json").json().elements.count == 0)
    }

    /// `--new-project` creates the project whatever the setting says, on
    /// each command that names one.
    @Test func newProjectSaysYesForOneCommand() throws {
        let t = try sandbox("never")
        let start = try t.run("start", "-p", "Web", "--new-project")
        #expect(start.status == 0, "\(start)")
        #expect(start.lines == [#"created project "Web""#, "started Web at 12:00"])
        let add = try t.run("add", "-p", "Mail", "-c", "Acme", "--new-project", "--from", "09:00", "--to", "10:00")
        #expect(add.lines == [#"created client "Acme""#, #"created project "Mail""#,
                              "added #2 Mail (Acme) 09:00–10:00 (1:00)"])
        let edit = try t.run("edit", "2", "-p", "Review", "--new-project")
        #expect(edit.lines == [#"created project "Review""#, "edited #2 Review 09:00–10:00 (1:00)"])
        // The next command is refused again: the flag is for one command.
        #expect(try t.run("start", "-p", "Ops").status == 1)
        #expect(try projects(t).sorted() == ["Docs", "Mail", "Review", "Web"])
    }

    @Test func alwaysCreatesAsBefore() throws {
        let t = try sandbox("always")
        let r = try t.run("start", "-p", "Dcos")
        #expect(r.status == 0)
        #expect(r.lines == [#"created project "Dcos""#, "started Dcos at 12:00"])
    }

    @Test func anExistingProjectNeedsNoPermission() throws {
        let t = try sandbox("never")
        let r = try t.run("start", "-p", "Docs")
        #expect(r.status == 0)
        #expect(r.lines == ["started Docs at 12:00"])
    }

    @Test func aBadSettingIsRefusedWithItsLine() throws {
        let t = try Sandbox(createProjects: "sometimes")
        let r = try t.run("start", "-p", "Docs")
        #expect(r.status == 78)
        #expect(r.stderr == failure(
            #"\#(t.path("config/trackee/config.yaml")):1: create_projects is "sometimes"; expected one of ask, always, never"#))
    }

    // MARK: On a terminal

    /// Runs `trackee arguments` with stdin and stderr on a pseudo-terminal
    /// (echo off) that has `typed` waiting; returns the exit status, what
    /// the terminal showed and stdout.
    private func onTerminal(_ t: Sandbox, _ arguments: [String], typing typed: String) throws
        -> (status: Int32, terminal: String, stdout: String)
    {
        // posix_openpt and friends are not in Swift's Glibc module; these
        // are what they do on Linux: open the multiplexer, unlock the new
        // terminal (TIOCSPTLCK) and ask its number (TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        var modes = termios()
        tcgetattr(slave, &modes)
        modes.c_lflag &= ~tcflag_t(ECHO)
        modes.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(slave, TCSANOW, &modes)
        _ = typed.withCString { write(master, $0, strlen($0)) }
        let out = t.path("io/terminal.out")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TrackeeBinary.path())
        process.arguments = arguments
        process.environment = t.environment
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.standardInput = terminal
        process.standardError = terminal
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        try process.run()
        process.waitUntilExit()
        try terminal.close()
        var shown: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = fcntl(master, F_SETFL, O_NONBLOCK)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            shown += buffer[..<n]
        }
        return (process.terminationStatus, String(decoding: shown, as: UTF8.self),
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self))
    }

    @Test func askAsksOnATerminalAndYesCreates() throws {
        let t = try sandbox(nil)
        let r = try onTerminal(t, ["start", "-p", "Dcos"], typing: "y\n")
        #expect(r.status == 0)
        #expect(r.terminal == #"Create project "Dcos"? [y/N] "#)
        #expect(r.stdout == "created project \"Dcos\"\nstarted Dcos at 12:00\n")
        #expect(try projects(t).sorted() == ["Dcos", "Docs"])
    }

    @Test(arguments: ["n\n", "\n", "yes please\n", "\u{04}"])
    func anythingButYesRefuses(typed: String) throws {
        let t = try sandbox("ask")
        let r = try onTerminal(t, ["start", "-p", "Dcos", "-c", "Acme"], typing: typed)
        #expect(r.status == 1)
        #expect(r.terminal == #"Create project "Dcos" under client "Acme"? [y/N] "#
            + #"trackee: no project "Dcos" under client "Acme"; did you mean "Docs"? (--new-project creates it)"# + "\n")
        #expect(r.stdout == "")
        #expect(try projects(t) == ["Docs"])
    }

    @Test func neverDoesNotAskEvenOnATerminal() throws {
        let t = try sandbox("never")
        let r = try onTerminal(t, ["start", "-p", "Dcos"], typing: "y\n")
        #expect(r.status == 1)
        #expect(r.terminal == Self.refusal)
    }
}
