import Foundation
import TrackeeTestSupport

/// A private PostgreSQL 15 cluster from Debian's packages, for one test:
/// `initdb` in a temporary directory with password (SCRAM) authentication,
/// listening only on a Unix socket in that directory, `pg_ctl stop` when
/// the cluster goes away. As root, the server's programs run as the
/// `postgres` user (initdb refuses root).
///
/// ```swift
/// let pg = try PostgresCluster()
/// let url = pg.url(database: "trackee")   // postgresql:///trackee?host=…&port=…
/// ```
final class PostgresCluster {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    static let bin = "/usr/lib/postgresql/15/bin"
    /// The superuser initdb makes, and its password.
    static let admin = "hubadmin"
    static let adminPassword = "admin-secret"

    let directory: URL
    let port: Int
    private let asPostgres: [String]

    /// Why no cluster can be made here, or nil when one can.
    static var unavailable: String? {
        if !FileManager.default.isExecutableFile(atPath: bin + "/initdb") {
            return "\(bin)/initdb is not installed (scripts/install-deps.sh installs postgresql-15)"
        }
        if getuid() == 0 && getpwnam("postgres") == nil {
            return "running as root, and there is no postgres user to run the server as"
        }
        return nil
    }

    init() throws {
        if let why = Self.unavailable { throw Unavailable(description: why) }
        directory = URL(fileURLWithPath: "/tmp/trackee-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A port of its own, so clusters of tests running at once never meet.
        port = 20_000 + Int.random(in: 0..<20_000)
        if getuid() == 0, let user = getpwnam("postgres") {
            chown(directory.path, user.pointee.pw_uid, user.pointee.pw_gid)
            asPostgres = ["/usr/sbin/runuser", "-u", "postgres", "--"]
        } else {
            asPostgres = []
        }
        let passwordFile = directory.appendingPathComponent("pw")
        try Self.adminPassword.write(to: passwordFile, atomically: true, encoding: .utf8)
        if getuid() == 0, let user = getpwnam("postgres") { chown(passwordFile.path, user.pointee.pw_uid, user.pointee.pw_gid) }
        try server(Self.bin + "/initdb", [
            "-D", data, "-U", Self.admin, "--pwfile=" + passwordFile.path, "--auth=scram-sha-256", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync",
        ])
        try start()
    }

    deinit {
        _ = try? server(Self.bin + "/pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    var data: String { directory.appendingPathComponent("data").path }

    private func start() throws {
        try server(Self.bin + "/pg_ctl", [
            "-D", data, "-l", directory.appendingPathComponent("log").path, "-w", "-t", "60", "start", "-o",
            "-k \(directory.path) -c listen_addresses='' -p \(port) -c fsync=off",
        ])
    }

    /// Stops the server at once (connections cut, as in a crash) and
    /// starts it again on the same socket.
    func restart() throws {
        try server(Self.bin + "/pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try start()
    }

    /// A URL for libpq: the Unix socket in the cluster's directory.
    func url(database: String) -> String {
        "postgresql:///\(database)?host=\(directory.path)&port=\(port)"
    }

    /// Runs SQL as the superuser with psql; returns its unaligned rows.
    /// The hub's schema is first on the search path, so `change` is
    /// `trackee.change`.
    @discardableResult
    func sql(_ statement: String, database: String = "postgres") throws -> String {
        let r = try psql(["-c", statement], as: Self.admin, password: Self.adminPassword, database: database)
        guard r.status == 0 else { throw Unavailable(description: "psql \(statement): \(r.stderr)") }
        return r.stdout
    }

    /// What psql printed and its status: the person's view of the hub,
    /// connected as `role` itself (a `SET ROLE` would leave the session
    /// the superuser's, which is what the hub's functions look at).
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "psql → \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// Runs SQL as `role` with psql, in the hub's database.
    func sql(_ statement: String, as role: String, password: String, database: String = "trackee") throws -> Answer {
        try psql(["-c", statement], as: role, password: password, database: database)
    }

    /// Runs a file of SQL (a pg_dump) as the superuser.
    func restore(_ file: String, database: String) throws {
        let r = try psql(["-q", "-f", file], as: Self.admin, password: Self.adminPassword, database: database)
        guard r.status == 0, r.stderr.isEmpty else { throw Unavailable(description: "psql -f \(file): \(r.stderr)") }
    }

    private func psql(_ arguments: [String], as role: String, password: String, database: String) throws -> Answer {
        let r = try runProgram(
            Self.bin + "/psql",
            ["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-v", "VERBOSITY=terse", "-h", directory.path, "-p",
             String(port), "-U", role, "-d", database] + arguments,
            environment: [
                "PGPASSWORD": password, "PGOPTIONS": "-c search_path=trackee,public", "PATH": "/usr/bin:/bin",
            ], in: directory)
        return Answer(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    /// The environment a program needs to reach the cluster as `role`
    /// the way libpq's tools do (psql, createdb, trackee with `--user`).
    func environment(as role: String, password: String) -> [String: String] {
        ["PGHOST": directory.path, "PGPORT": String(port), "PGUSER": role, "PGPASSWORD": password]
    }

    private func server(_ program: String, _ arguments: [String]) throws {
        let command = asPostgres.isEmpty ? [program] + arguments : asPostgres + [program] + arguments
        let (status, output) = try Self.spawn(command, log: directory.appendingPathComponent("run.log").path)
        guard status == 0 else {
            throw Unavailable(description: "\(program) \(arguments.joined(separator: " ")) failed (\(status)): \(output)")
        }
    }

    /// posix_spawn and waitpid, output to `log`. Not Foundation's Process:
    /// `pg_ctl start` leaves the server running as a grandchild, and
    /// Process then never saw its child end.
    static func spawn(_ command: [String], log: String) throws -> (Int32, String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables: [String] = ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environment)
        guard spawned == 0 else { throw Unavailable(description: "\(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exited, output)
    }
}
