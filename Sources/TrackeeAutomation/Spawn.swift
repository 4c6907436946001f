import Glibc
import TrackeeCore

/// Starting programs for `run` and `notify` actions: an argv list executed
/// directly (posix_spawnp looks `argv[0]` up in `$PATH`), never a shell
/// command line, so no text from a trigger is ever parsed as shell syntax.
public enum Spawn {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var program: String
        public var reason: String
        public var description: String { "cannot run \(program): \(reason)" }
    }

    /// Starts `argv` with `environment` as its whole environment. The child
    /// reads /dev/null as stdin (the daemon's stdin carries event lines),
    /// keeps stdout and stderr, and starts with default signal handling and
    /// an empty signal mask whatever the parent had.
    public static func start(_ argv: [String], environment: [String: String]) throws(Failure) -> pid_t {
        guard let program = argv.first, !program.isEmpty else {
            throw Failure(program: "(nothing)", reason: "the argv list is empty")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.keys.sorted().map { strdup("\($0)=\(environment[$0]!)") } + [nil]
        defer {
            for p in cArgv { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        var status = posix_spawnp(&pid, program, &actions, &attributes, cArgv, cEnv)
        // A program written a moment ago can still be open for writing in
        // a child another thread is starting (ETXTBSY until that child
        // execs); a short retry outlasts that window.
        var retries = 0
        while status == ETXTBSY && retries < 20 {
            usleep(5_000)
            retries += 1
            status = posix_spawnp(&pid, program, &actions, &attributes, cArgv, cEnv)
        }
        guard status == 0 else {
            throw Failure(program: program, reason: String(cString: strerror(status)))
        }
        return pid
    }

    /// Waits for a child and returns its exit status, or 128 plus the
    /// signal number that ended it.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Starts `argv` and waits for it.
    public static func run(_ argv: [String], environment: [String: String]) throws(Failure) -> Int32 {
        wait(try start(argv, environment: environment))
    }

    /// The first executable `name` in `path` (a `$PATH` value), if any.
    public static func find(_ name: String, in path: String) -> String? {
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
