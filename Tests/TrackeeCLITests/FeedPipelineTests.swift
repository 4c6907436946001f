import Foundation
import Glibc
import Testing
import TrackeeTestSupport

/// The location pipelines of issue 8, end to end against the real
/// programs: a recorded walk replayed by gpsd (through gpsfake) into
/// `gpspipe -w | trackee feed`, OwnTracks messages through a mosquitto
/// broker into `mosquitto_sub | trackee feed`, and the recipes that run
/// them for good, recipes/shell/trackee-gps.sh and
/// recipes/systemd/trackee-gps.service.
///
/// `scripts/install-deps.sh` (run by `make test`) installs the Debian
/// packages gpsd, gpsd-clients, mosquitto and mosquitto-clients; a test is
/// skipped, with the reason, only where its programs cannot run here.
///
/// The recording, recipes/location/walk-to-office.nmea, is a u-blox-like
/// receiver at 1 Hz (GNRMC, GNGGA and GNGST each second) on Monday
/// 2026-11-23 from 07:55:00 UTC (08:55 in Prague): a walk along the street
/// 236 m from the office of recipes/rules/office-arrive-leave.yaml, a
/// passage under a building with no fix (RMC status V, GGA quality 0), the
/// courtyard, where the first fix, 07:56:19 UTC, lies 113 m from the
/// centre, five minutes there and at a desk, the passage back, and the
/// street from 08:02:39 UTC, 217 m out, five minutes to the tram stop. The
/// first fix inside and the first outside are so for any accuracy up to
/// 35 m, so they do not hang on how gpsd rates a fix.
@Suite struct FeedPipelineTests {
    static let walk = RecipeTests.recipes.appendingPathComponent("location/walk-to-office.nmea").path
    static let officeRules = RecipeTests.rule("office-arrive-leave.yaml")

    /// The entry the office rules make of the walk: from the first fix
    /// inside to the first fix outside.
    static let officeEntry = """
        [
          {"id": 1, "project": "Office", "description": "At the office", "tags": ["location"], "billable": false,
           "start": "2026-11-23T08:56:19+01:00", "end": "2026-11-23T09:02:39+01:00", "duration_seconds": 380,
           "running": false, "source": "rule:office-arrive"}
        ]
        """

    // MARK: gpsd

    /// gpsd's own programs, and why they cannot be used here if they cannot.
    enum GPSD {
        static let gpsfake = Peer.find("gpsfake")
        static let gpspipe = Peer.find("gpspipe")

        /// Nil when gpsfake, gpsd and gpspipe all answer `-V`; else a
        /// sentence saying why the test is skipped.
        static let problem: String? = {
            let install = "(scripts/install-deps.sh installs the Debian packages gpsd and gpsd-clients)"
            guard let gpsfake else { return "gpsfake is not installed \(install)" }
            guard let gpspipe else { return "gpspipe is not installed \(install)" }
            guard let gpsd = Peer.find("gpsd") else { return "gpsd is not installed \(install)" }
            // gpsfake -V also imports gpsd's Python module, which it cannot work without.
            for program in [gpsfake, gpsd, gpspipe] {
                if let problem = Peer.problem(running: program, ["-V"], answersWith: "", status: 0) { return problem }
            }
            return nil
        }()
    }

    /// gpsfake replaying the walk through a pty into a gpsd of its own, on a
    /// free port of the loopback.
    ///
    /// It runs with `-l -i`, so it holds each sentence until a line arrives
    /// on its standard input: nothing reaches gpsd before the test's
    /// client watches. With `-p` gpsfake watches gpsd too, and once gpsd
    /// has read the whole recording (`-1`: once) it stops gpsd and exits,
    /// which ends every client. `-c` paces the sentences, 2 ms apart.
    final class GPSFake {
        let port: UInt16
        let program: StartedProgram
        /// Our end of gpsfake's standard input, a socket: writing to it
        /// after gpsfake died fails the test instead of killing the test
        /// process with SIGPIPE.
        private var gate: Int32
        private let sentences: Int
        private var released = 0

        private init(_ t: Sandbox, recording: String = FeedPipelineTests.walk) throws {
            port = try Peer.freePort()
            // Bytes, not characters: "\r\n" is one Character.
            sentences = try Data(contentsOf: URL(fileURLWithPath: recording)).count { $0 == 0x0A }
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            gate = ends[0]
            defer { close(ends[1]) }
            var environment = t.environment
            environment["TMPDIR"] = t.root.path
            do {
                program = try StartedProgram(
                    try #require(GPSD.gpsfake),
                    ["-p", "-1", "-q", "-l", "-i", "-c", "0.002", "-P", String(port),
                     "-r", #"?WATCH={"enable":true,"json":true}"#, recording],
                    environment: environment, in: t, named: "gpsfake", input: .descriptor(ends[1]))
            } catch {
                close(gate)
                throw error
            }
        }

        deinit { stop() }

        /// gpsfake once it holds the first sentence: gpsd listens, has the
        /// fake receiver, and has read nothing from it yet. A port taken
        /// between choosing and binding it ends gpsfake; another is tried.
        static func start(_ t: Sandbox) throws -> GPSFake {
            try Peer.start("gpsfake", { try GPSFake(t) }, port: \.port, program: \.program, stop: { $0.stop() }) {
                $0.stdout.contains("gpsfake: line 1: $")
            }
        }

        /// Lets the next `count` sentences go to gpsd.
        func release(_ count: Int) throws {
            released += count
            let lines = [UInt8](repeating: 0x0A, count: count)
            var sent = 0
            while sent < count {
                let n = lines.withUnsafeBytes { send(gate, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                sent += n
            }
        }

        /// Lets the rest of the recording go, with its end ("# EOF").
        func releaseTheRest() throws {
            try release(max(0, sentences + 1 - released))
        }

        /// Stops gpsfake and its gpsd if they still run.
        func stop() {
            program.stop()
            if gate >= 0 { close(gate) }
            gate = -1
        }
    }

    /// The first five of the 126 no-fix reports gpsd makes of the two
    /// passages, and the count of the rest, as `trackee feed` warns of them
    /// (line numbers of gpspipe's output).
    static let noFixWarnings = [38, 40, 42, 44, 46].map { "trackee: stdin:\($0): gpsd TPV mode is 1 (no fix)\n" }.joined()
        + "trackee: … and 121 more ignored lines\n"

    @Test(.enabled(if: GPSD.problem == nil, Comment(rawValue: GPSD.problem ?? "gpsd runs")))
    func aWalkReplayedByGpsdThroughGpspipeStartsAndEndsTheOfficeEntryAtTheFirstFixesInsideAndOutside() throws {
        let t = try Sandbox(now: "2026-11-23 12:00")
        let fake = try GPSFake.start(t)
        defer { fake.stop() }

        let feed = try t.launch(
            ["feed", "--rules", Self.officeRules], environment: ["PATH": try Peer.binDirectory(t)],
            via: ["/bin/sh", "-c", "gpspipe -w 127.0.0.1:\(fake.port) | tee gpspipe.jsonl | trackee \"$@\""])
        defer { if feed.process.isRunning { ProcessTree.stop(feed.process.processIdentifier) } }
        // gpsd has answered gpspipe's WATCH: whatever it reports from now on reaches gpspipe.
        let raw = t.path("gpspipe.jsonl")
        try #require(Self.eventually { Peer.text(raw).contains(#"{"class":"WATCH","enable":true,"json":true"#) },
                     "gpspipe: \(Peer.text(raw)) \(feed.stderrSoFar)")
        try fake.releaseTheRest()
        // gpsfake stops gpsd after the recording; gpspipe and then the feed end.
        try #require(Self.eventually(30) { !feed.process.isRunning }, "the pipeline did not end: \(feed.stderrSoFar)")
        let r = try feed.wait()

        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "2026-11-23T08:56:19+01:00  arrive office, accuracy 16 m",
            #"fired office-arrive at 2026-11-23T08:56:19+01:00: started Office (created project "Office")"#,
            "2026-11-23T09:02:39+01:00  leave office, accuracy 26 m",
            "fired office-leave at 2026-11-23T09:02:39+01:00: stopped Office",
            "read 1531 lines, 636 fixes used, 127 ignored (duplicate 1, not a fix 126), 2 transitions, 2 rules fired",
        ])
        #expect(r.stderr == Self.noFixWarnings)
        #expect(try t.loggedEntries(at: "2026-11-23 12:00") == parsedJSON(Self.officeEntry))

        // What gpsd made of the sentences, as trackee read it: a TPV report
        // per epoch (and a second, the same, for the first, once GGA adds
        // the altitude), a GST report per epoch, and no fix in the passages.
        // gpsd ends its lines with "\r\n", one Character.
        let reports = try Peer.text(raw).split(whereSeparator: \.isNewline).map { try parsedJSON(String($0)) }
        #expect(Dictionary(grouping: reports, by: { $0["class"].string ?? "?" }).mapValues(\.count)
                    == ["VERSION": 1, "DEVICES": 1, "WATCH": 1, "DEVICE": 3, "TPV": 763, "GST": 762])
        #expect(reports.filter { $0["class"] == "TPV" && $0["mode"] == 1 }.count == 126)
        // The first fix inside: the time is RMC's date and time of day; the
        // GST deviations become a GST report, not the TPV's epx and epy;
        // eph, the accuracy trackee uses, is gpsd's HDOP × 19 m, and gpsd
        // 3.22 takes the HDOP of the GGA before (0.82, the last fix before
        // the passage; this epoch's is 1.28).
        let inside = try #require(reports.first { $0["class"] == "TPV" && $0["time"] == "2026-11-23T07:56:19.000Z" })
        #expect(inside["mode"] == 3)
        #expect(inside["lat"] == .number(50.0867855) && inside["lon"] == .number(14.422417667))
        #expect(inside["eph"] == .number(15.58))
        #expect(inside["epx"] == .absent && inside["epy"] == .absent)
        let deviations = try #require(reports.first { $0["class"] == "GST" && $0["time"] == "2026-11-23T07:56:19.000Z" })
        #expect(deviations["lat"] == .number(3.5) && deviations["lon"] == .number(3.8))

        #expect(Self.eventually { !fake.program.isRunning })
    }

    /// The same recording given to trackee as a file: the same transitions
    /// at the same times, with the accuracy from the GST deviations.
    @Test func theRecordingFedStraightToTrackeeGivesTheSameTransitions() throws {
        let t = try Sandbox(now: "2026-11-23 12:00")
        let r = try t.run("feed", "--rules", Self.officeRules, Self.walk)
        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "2026-11-23T08:56:19+01:00  arrive office, accuracy 5 m",
            #"fired office-arrive at 2026-11-23T08:56:19+01:00: started Office (created project "Office")"#,
            "2026-11-23T09:02:39+01:00  leave office, accuracy 3 m",
            "fired office-leave at 2026-11-23T09:02:39+01:00: stopped Office",
            "read 2286 lines, 636 fixes used, 126 ignored (not a fix 126), 2 transitions, 2 rules fired",
        ])
        #expect(r.stderr == [49, 52, 55, 58, 61].map { "trackee: \(Self.walk):\($0): RMC status is V (no fix)\n" }.joined()
                    + "trackee: … and 121 more ignored lines\n")
        #expect(try t.loggedEntries(at: "2026-11-23 12:00") == parsedJSON(Self.officeEntry))
    }

    // MARK: OwnTracks over MQTT

    /// mosquitto and its clients, and why they cannot be used here if they
    /// cannot.
    enum Mosquitto {
        static let broker = Peer.find("mosquitto")
        static let sub = Peer.find("mosquitto_sub")
        static let pub = Peer.find("mosquitto_pub")

        /// Nil when the broker and both clients start and name their
        /// version (they do so with a usage status, not 0).
        static let problem: String? = {
            let install = "(scripts/install-deps.sh installs the Debian packages mosquitto and mosquitto-clients)"
            guard let broker else { return "mosquitto is not installed \(install)" }
            guard let sub else { return "mosquitto_sub is not installed \(install)" }
            guard let pub else { return "mosquitto_pub is not installed \(install)" }
            return Peer.problem(running: broker, ["-h"], answersWith: "mosquitto version ")
                ?? Peer.problem(running: sub, ["--version"], answersWith: "mosquitto_sub version ")
                ?? Peer.problem(running: pub, ["--version"], answersWith: "mosquitto_pub version ")
        }()
    }

    /// A mosquitto broker on a free port of the loopback, for anyone,
    /// logging everything it does (subscriptions too) to standard error.
    final class Broker {
        let port: UInt16
        let program: StartedProgram

        /// The broker once it accepts connections; another port is tried
        /// if the one chosen was taken before mosquitto bound it.
        static func start(_ t: Sandbox) throws -> Broker {
            try Peer.start("mosquitto", { try Broker(t) }, port: \.port, program: \.program, stop: { $0.stop() }) {
                $0.stderr.contains(" running\n")
            }
        }

        private init(_ t: Sandbox) throws {
            port = try Peer.freePort()
            let config = try t.write("""
                listener \(port) 127.0.0.1
                allow_anonymous true
                persistence false
                log_dest stderr
                log_type all

                """, to: "mosquitto.conf")
            program = try StartedProgram(try #require(Mosquitto.broker), ["-c", config], environment: t.environment,
                                         in: t, named: "mosquitto")
        }

        /// Publishes `messages` to `topic`, one message per line, over one
        /// connection, so they arrive in order.
        func publish(_ messages: [String], to topic: String, retained: Bool = false, _ t: Sandbox) throws {
            let input = try t.write(messages.map { $0 + "\n" }.joined(), to: "publish-\(UUID().uuidString)")
            let run = try Peer.run(
                try #require(Mosquitto.pub),
                ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-l"] + (retained ? ["-r"] : []),
                environment: t.environment, in: t, input: input)
            #expect(run.status == 0, "mosquitto_pub: \(run.stderr)")
        }

        func stop() { program.stop() }
    }

    /// The phone's own geofence: a region "client" in OwnTracks, and the
    /// rule that starts a visit when the phone says it entered it.
    static let phoneRules = """
        places:
          client: {lat: 50.0740, lon: 14.4395, radius: 120}
        rules:
          - id: client-arrive
            name: At the client's
            when: {arrive: client, source: owntracks}
            do:
              - start: {project: Client visit}
        """

    /// Alice's phone on Tuesday 2026-11-24, as OwnTracks publishes it in
    /// move mode: a walk into the office (08:53:40 in Prague, 60 m from the
    /// centre) and, after six minutes, out (09:01:20, 255 m out) and away,
    /// and at 09:15:30 the phone's own region "client" entered.
    static let phoneMessages = [
        #"{"_type":"location","tid":"al","lat":50.084982,"lon":14.425645,"acc":12,"alt":238,"batt":81,"bs":1,"conn":"m","tst":1795506600,"vac":5,"vel":5,"m":1,"t":"u"}"#,
        #"{"_type":"location","tid":"al","lat":50.086061,"lon":14.423683,"acc":8,"alt":236,"batt":81,"bs":1,"conn":"m","tst":1795506750,"vac":4,"vel":5,"m":1,"t":"u"}"#,
        #"{"_type":"location","tid":"al","lat":50.087095,"lon":14.421861,"acc":16,"alt":237,"batt":80,"bs":1,"conn":"w","tst":1795506820,"vac":6,"vel":3,"m":1,"t":"u"}"#,
        #"{"_type":"location","tid":"al","lat":50.087320,"lon":14.421510,"acc":20,"alt":241,"batt":80,"bs":1,"conn":"w","tst":1795506910,"vac":9,"vel":1,"m":1,"t":"u"}"#,
        #"{"_type":"location","tid":"al","lat":50.087275,"lon":14.421440,"acc":24,"alt":241,"batt":80,"bs":1,"conn":"w","tst":1795506965,"vac":10,"vel":0,"m":1,"t":"u"}"#,
        #"{"_type":"location","tid":"al","lat":50.087338,"lon":14.421468,"acc":30,"alt":240,"batt":80,"bs":1,"conn":"w","tst":1795507140,"vac":12,"vel":0,"m":1,"t":"u"}"#,
        #"{"_type":"location","tid":"al","lat":50.089209,"lon":14.418917,"acc":10,"alt":235,"batt":79,"bs":1,"conn":"m","tst":1795507280,"vac":4,"vel":5,"m":1,"t":"u"}"#,
        #"{"_type":"location","tid":"al","lat":50.091367,"lon":14.415974,"acc":8,"alt":233,"batt":79,"bs":1,"conn":"m","tst":1795507440,"vac":4,"vel":18,"m":1,"t":"u"}"#,
        #"{"_type":"location","tid":"al","lat":50.095414,"lon":14.410647,"acc":6,"alt":231,"batt":79,"bs":1,"conn":"m","tst":1795507620,"vac":3,"vel":22,"m":1,"t":"u"}"#,
        #"{"_type":"transition","tid":"al","event":"enter","desc":"client","lat":50.07401,"lon":14.43952,"acc":15,"tst":1795508130,"wtst":1794902400,"rid":"b7c1e2","t":"c"}"#,
    ]

    /// The card OwnTracks keeps retained beside the locations.
    static let phoneCard = #"{"_type":"card","name":"Alice","tid":"al"}"#

    /// With `-v` mosquitto_sub prints each message after its topic and a
    /// space; without, the message alone. Either way the card gives nothing
    /// and is only counted as a line.
    @Test(.enabled(if: Mosquitto.problem == nil, Comment(rawValue: Mosquitto.problem ?? "mosquitto runs")),
          arguments: [true, false])
    func ownTracksThroughMosquittoFiresTheOfficeRulesAndThePhonesOwnRegion(topicFirst: Bool) throws {
        let t = try Sandbox(now: "2026-11-24 12:00")
        let phone = try t.write(Self.phoneRules, to: "phone.yaml")
        let broker = try Broker.start(t)
        defer { broker.stop() }

        let messages = Self.phoneMessages.count + 1
        let subscribe = "mosquitto_sub -h 127.0.0.1 -p \(broker.port) -i trackee-feed -t 'owntracks/#'"
            + (topicFirst ? " -v" : "") + " -C \(messages)"
        let feed = try t.launch(
            ["feed", "--rules", Self.officeRules, "--rules", phone], environment: ["PATH": try Peer.binDirectory(t)],
            via: ["/bin/sh", "-c", subscribe + " | trackee \"$@\""])
        defer { if feed.process.isRunning { ProcessTree.stop(feed.process.processIdentifier) } }
        try #require(Self.eventually { broker.program.stderr.contains("Sending SUBACK to trackee-feed\n") },
                     "mosquitto: \(broker.program.stderr)\nfeed: \(feed.stderrSoFar)")

        try broker.publish([Self.phoneCard], to: "owntracks/alice/phone/info", retained: true, t)
        try broker.publish(Self.phoneMessages, to: "owntracks/alice/phone", t)
        // mosquitto_sub ends after the last message, and the feed with it.
        try #require(Self.eventually { !feed.process.isRunning }, "the pipeline did not end: \(feed.stderrSoFar)")
        let r = try feed.wait()

        #expect(r.status == 0, "\(r)")
        #expect(r.lines == [
            "2026-11-24T08:53:40+01:00  arrive office, accuracy 16 m",
            #"fired office-arrive at 2026-11-24T08:53:40+01:00: started Office (created project "Office")"#,
            "2026-11-24T09:01:20+01:00  leave office, accuracy 10 m",
            "fired office-leave at 2026-11-24T09:01:20+01:00: stopped Office",
            "2026-11-24T09:15:30+01:00  arrive client (OwnTracks), accuracy 15 m",
            #"fired client-arrive at 2026-11-24T09:15:30+01:00: started Client visit (created project "Client visit")"#,
            "read 11 lines, 10 fixes used, 0 ignored, 3 transitions, 3 rules fired",
        ])
        #expect(r.stderr == "")
        #expect(try t.loggedEntries(at: "2026-11-24 12:00") == parsedJSON("""
            [
              {"id": 2, "project": "Client visit", "description": "", "tags": [], "billable": false,
               "start": "2026-11-24T09:15:30+01:00", "duration_seconds": 9870, "running": true,
               "source": "rule:client-arrive"},
              {"id": 1, "project": "Office", "description": "At the office", "tags": ["location"], "billable": false,
               "start": "2026-11-24T08:53:40+01:00", "end": "2026-11-24T09:01:20+01:00", "duration_seconds": 460,
               "running": false, "source": "rule:office-arrive"}
            ]
            """))
    }

    // MARK: The systemd unit and its wrapper

    @Test(.enabled(if: RecipeTests.systemdAnalyze != nil, "systemd-analyze is not installed, so the unit cannot be verified"))
    func theGpsServiceUnitPassesSystemdAnalyzeVerify() throws {
        let t = try Sandbox()
        // verify checks that %h/.local/bin/trackee-gps exists and can be
        // run, installed as the unit's comment says, and that the man:
        // pages of Documentation= open with man(1): both are set up in the
        // sandbox.
        let bin = t.path("home/.local/bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/trackee", withDestinationPath: TrackeeBinary.path())
        try FileManager.default.copyItem(
            atPath: RecipeTests.recipes.appendingPathComponent("shell/trackee-gps.sh").path, toPath: bin + "/trackee-gps")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/trackee-gps")
        for (section, page) in [("man1", "trackee.1"), ("man5", "trackee-rules.5")] {
            try FileManager.default.createDirectory(atPath: t.path("man/" + section), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: RecipeTests.root.appendingPathComponent("man/" + page).path, toPath: t.path("man/\(section)/\(page)"))
        }
        let runtime = t.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let hasMan = FileManager.default.isExecutableFile(atPath: "/usr/bin/man")
        if !hasMan { print("man(1) is not installed; Documentation= is not checked") }

        let run = try Peer.run(
            RecipeTests.systemdAnalyze!,
            ["verify", "--user"] + (hasMan ? [] : ["--man=no"])
                + [RecipeTests.recipes.appendingPathComponent("systemd/trackee-gps.service").path],
            environment: [
                "HOME": t.path("home"), "XDG_RUNTIME_DIR": runtime, "MANPATH": t.path("man"),
                "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
            ], in: t)
        #expect(run.stdout + run.stderr == "")
        #expect(run.status == 0)
    }

    /// The unit's comment says its sandbox is trackee.service's with the
    /// Internet address families added; only what makes it the GPS unit
    /// differs.
    @Test func theGpsServiceUnitDiffersFromTheServiceUnitOnlyInItsCommandAndAddressFamilies() throws {
        func settings(_ unit: String) throws -> [String] {
            try String(contentsOf: RecipeTests.recipes.appendingPathComponent("systemd/" + unit), encoding: .utf8)
                .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        }
        let plain = try settings("trackee.service")
        let gps = try settings("trackee-gps.service")
        #expect(gps.filter { !plain.contains($0) } == [
            "Description=trackee automation rules, with position fixes from gpsd",
            "Documentation=man:trackee(1) man:trackee-rules(5) https://gpsd.io/gpspipe.html",
            "Conflicts=trackee.service",
            "ExecStart=%h/.local/bin/trackee-gps",
            "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6",
        ])
        #expect(plain.filter { !gps.contains($0) } == [
            "Description=trackee automation rules",
            "Documentation=man:trackee(1) man:trackee-rules(5)",
            "ExecStart=%h/.local/bin/trackee run",
            "RestrictAddressFamilies=AF_UNIX AF_NETLINK",
        ])
    }

    /// recipes/shell/trackee-gps.sh with gpsfake's gpsd on its command
    /// line, trackee and gpspipe on PATH, the office recipe installed in
    /// rules.d as its comment says, and the daemon's real clock. Returns
    /// once gpspipe, started by the wrapper, is connected to gpsd.
    private func startWrapper(_ t: Sandbox, _ fake: GPSFake) throws -> StartedProgram {
        try FileManager.default.createDirectory(atPath: t.path("config/trackee/rules.d"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.officeRules, toPath: t.path("config/trackee/rules.d/office-arrive-leave.yaml"))
        var environment = t.environment
        environment["PATH"] = try Peer.binDirectory(t)
        environment["TRACKEE_NOW"] = nil
        let wrapper = try StartedProgram(
            RecipeTests.recipes.appendingPathComponent("shell/trackee-gps.sh").path, ["127.0.0.1:\(fake.port)"],
            environment: environment, in: t, named: "trackee-gps")
        // gpsd's two clients: gpsfake's own watcher and gpspipe.
        try #require(Self.eventually { Peer.connections(to: fake.port) == 2 || !wrapper.isRunning },
                     "gpspipe did not connect: \(Peer.connections(to: fake.port)) connections, \(ProcessTree.descendants(of: wrapper.pid)) running; \(wrapper.stderr)")
        try #require(wrapper.isRunning, "trackee-gps ended: \(wrapper.stderr)")
        return wrapper
    }

    /// The wrapper's loop (a subshell), the gpspipe it runs and the tail
    /// that watches trackee run, as they are while trackee run lives.
    private func loopAndGpspipe(of wrapper: StartedProgram) -> [ProcessTree.Member] {
        let members = ProcessTree.descendants(of: wrapper.pid)
        #expect(members.map(\.name).sorted() == ["gpspipe", "tail", "trackee-gps.sh"], "\(members)")
        return members
    }

    @Test(.enabled(if: GPSD.problem == nil, Comment(rawValue: GPSD.problem ?? "gpsd runs")))
    func theGpsWrapperFeedsTrackeeRunFromGpsdAndEndsWithItOnSIGTERM() throws {
        let t = try Sandbox()
        t.now = ""
        let fake = try GPSFake.start(t)
        defer { fake.stop() }
        let wrapper = try startWrapper(t, fake)
        defer { wrapper.stop() }
        let loop = loopAndGpspipe(of: wrapper)
        defer { loop.forEach { $0.stop() } }

        // Up to 07:58:24 UTC: past 07:58:19, two minutes after the first
        // fix inside, when the arrive rule fires.
        try fake.release(3 * 205)
        try #require(Self.eventually { wrapper.stderr.contains(#"fired rule "office-arrive""#) }, "\(wrapper.stderr)")

        // The wrapper became trackee run: the signal reaches trackee itself.
        wrapper.signal(SIGTERM)
        try #require(wrapper.wait(upTo: 15), "trackee run did not stop: \(wrapper.stderr)")
        #expect(wrapper.exitStatus == 0)
        // The no-fix reports of the passage are logged only with --verbose;
        // the first run's time is the real one:
        let log = wrapper.stderr.split(separator: "\n").map(String.init)
            .map { $0.hasPrefix("trackee run: info: first run: schedules fire from ") ? "(first run)" : $0 }
        // What the desk attached depends on the machine's buses, and its
        // line races the first pass's: once, in any place.
        #expect(log.filter { $0.hasPrefix("trackee run: info: desk: ") }.count == 1)
        #expect(log.filter { !$0.hasPrefix("trackee run: info: desk: ") } == [
            "trackee run: info: loaded 2 rules from 1 file",
            "(first run)",
            #"trackee run: info: fired rule "office-arrive" (Arrived at the office): arrive office at "#
                + "2026-11-23T08:56:19+01:00: started",
            "trackee run: info: stopped",
        ])
        #expect(try t.loggedEntries(at: "2026-11-23 12:00") == parsedJSON("""
            [
              {"id": 1, "project": "Office", "description": "At the office", "tags": ["location"], "billable": false,
               "start": "2026-11-23T08:56:19+01:00", "duration_seconds": 11021, "running": true,
               "source": "rule:office-arrive"}
            ]
            """))

        // The receiver goes on sending: gpspipe's next line finds trackee
        // gone, and gpspipe and the loop end.
        try fake.releaseTheRest()
        #expect(Self.eventually { loop.allSatisfy { !$0.isAlive } }, "left behind: \(loop.filter(\.isAlive))")
    }

    /// gpsd that has nothing to say (the receiver unplugged) sends gpspipe
    /// nothing; the wrapper's comment promises the loop ends with trackee
    /// run all the same. gpspipe only notices trackee run is gone when it
    /// next writes to it, so the wrapper has to end it itself.
    @Test(.enabled(if: GPSD.problem == nil, Comment(rawValue: GPSD.problem ?? "gpsd runs")))
    func theGpsWrapperLeavesNoGpspipeBehindWhenStoppedWhileGpsdIsQuiet() throws {
        let t = try Sandbox()
        t.now = ""
        let fake = try GPSFake.start(t)
        defer { fake.stop() }
        let wrapper = try startWrapper(t, fake)
        defer { wrapper.stop() }
        let loop = loopAndGpspipe(of: wrapper)
        defer { loop.forEach { $0.stop() } }
        // Logged once trackee run handles SIGTERM itself.
        try #require(Self.eventually { wrapper.stderr.contains("first run: schedules fire from") }, "\(wrapper.stderr)")

        wrapper.signal(SIGTERM)
        try #require(wrapper.wait(upTo: 15), "trackee run did not stop: \(wrapper.stderr)")
        #expect(wrapper.exitStatus == 0)
        #expect(wrapper.stderr.hasSuffix("trackee run: info: stopped\n"), "\(wrapper.stderr)")
        // tail notices trackee run is gone within a second.
        #expect(Self.eventually(10) { loop.allSatisfy { !$0.isAlive } }, "left behind: \(loop.filter(\.isAlive))")
    }
}

// MARK: Helpers

extension FeedPipelineTests {
    /// A helper program that would not start, with what it said.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Waits up to `seconds` for `condition`, checking every 20 ms.
    static func eventually(_ seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        try eventuallyHolding(within: seconds, every: .milliseconds(20), condition)
    }

    /// Finding, probing and running the programs the pipelines are made of.
    enum Peer {
        /// A peer on a free port, once `ready` says its program is up; a
        /// port taken between choosing and binding it ends the program, and
        /// another is tried, three times at most.
        static func start<P>(_ name: String, _ make: () throws -> P, port: (P) -> UInt16, program: (P) -> StartedProgram,
                             stop: (P) -> Void, ready: @escaping (StartedProgram) -> Bool) throws -> P
        {
            var problems: [String] = []
            for _ in 1...3 {
                let peer = try make()
                let started = program(peer)
                let settled = FeedPipelineTests.eventually { ready(started) || !started.isRunning }
                if settled && started.isRunning { return peer }
                stop(peer)
                problems.append("port \(port(peer)): \(started.stderr)")
            }
            throw Failure(description: "\(name) did not start: " + problems.joined(separator: "; "))
        }

        /// The program in the usual directories, if it is installed.
        static func find(_ name: String) -> String? {
            ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/bin", "/sbin"]
                .map { $0 + "/" + name }
                .first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        /// Nil when `program arguments` runs and its output starts with
        /// `answer` (and it exits with `status`, when given); else why not.
        static func problem(running program: String, _ arguments: [String], answersWith answer: String, status: Int32? = nil)
            -> String?
        {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackee-peer-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let run = try run(program, arguments, environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"],
                                  in: directory.path)
                let output = run.stdout + run.stderr
                if let status, run.status != status {
                    return "\(program) \(arguments.joined(separator: " ")) exited with status \(run.status): \(output)"
                }
                return output.hasPrefix(answer) ? nil : "\(program) \(arguments.joined(separator: " ")) answered: \(output)"
            } catch {
                return "\(program) cannot be started: \(error)"
            }
        }

        /// Runs a program to its end; `input` is a file for its standard
        /// input.
        static func run(_ executable: String, _ arguments: [String], environment: [String: String], in t: Sandbox,
                        input: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
            try run(executable, arguments, environment: environment, in: t.root.path, input: input)
        }

        static func run(_ executable: String, _ arguments: [String], environment: [String: String], in directory: String,
                        input: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
            let program = try StartedProgram(executable, arguments, environment: environment, in: directory,
                                             named: (executable as NSString).lastPathComponent,
                                             input: input.map(StartedProgram.Input.file) ?? .nothing)
            defer { program.removeOutput() }
            return (program.waitForExit(), program.stdout, program.stderr)
        }

        /// A port of the loopback that nothing listens on: one the kernel
        /// hands out for port 0, let go again.
        static func freePort() throws -> UInt16 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return UInt16(bigEndian: address.sin_port)
        }

        /// Established TCP connections from the loopback to `port`, as the
        /// kernel lists them (the clients' ends).
        static func connections(to port: UInt16) -> Int {
            let suffix = String(format: ":%04X", port)
            return text("/proc/net/tcp").split(separator: "\n").dropFirst().filter { line in
                let fields = line.split(separator: " ")
                return fields.count > 3 && fields[2].hasSuffix(suffix) && fields[3] == "01"
            }.count
        }

        /// `bin/` in the sandbox, holding a `trackee` link to the built binary,
        /// as a PATH with it first.
        static func binDirectory(_ t: Sandbox) throws -> String {
            let bin = t.path("bin")
            if !FileManager.default.fileExists(atPath: bin) {
                try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
                try FileManager.default.createSymbolicLink(atPath: bin + "/trackee", withDestinationPath: TrackeeBinary.path())
            }
            return bin + ":/usr/local/bin:/usr/bin:/bin"
        }

        /// A file's text, empty if it cannot be read. Read to its end in
        /// a loop: files in /proc claim no size and give a page a read.
        static func text(_ path: String) -> String {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return "" }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                bytes += chunk[..<n]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A program a test started, its output going to files, so that any
    /// number can run at once without pipes filling up.
    ///
    /// It is spawned here rather than with Foundation's `Process`, which
    /// learns that a child ended when a socket the child inherits closes:
    /// with a child that leaves processes behind, as trackee-gps.sh may,
    /// it would never learn it, nor reap the child, which `kill -0` then
    /// still finds. This one inherits nothing but its standard input and
    /// output, starts with default signal handling, and is reaped as soon
    /// as a test sees it has ended.
    final class StartedProgram {
        enum Input {
            case nothing
            case file(String)
            case descriptor(Int32)
        }

        let pid: pid_t
        let stdoutPath: String
        let stderrPath: String
        /// The wait status, once reaped.
        private var waitStatus: Int32?

        convenience init(_ executable: String, _ arguments: [String], environment: [String: String], in t: Sandbox,
                         named name: String, input: Input = .nothing) throws {
            try self.init(executable, arguments, environment: environment, in: t.root.path, named: name, input: input)
        }

        init(_ executable: String, _ arguments: [String], environment: [String: String], in directory: String,
             named name: String, input: Input = .nothing) throws {
            let id = "\(name)-\(UUID().uuidString)"
            stdoutPath = directory + "/" + id + ".out"
            stderrPath = directory + "/" + id + ".err"
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            switch input {
            case .nothing: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 0)
            }
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            // Glibc's Swift module leaves out its _np extensions; they are
            // looked up by name (glibc 2.29 and 2.34 have them).
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            let closeFrom = try #require(dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"))
            let changeDirectory = try #require(dlsym(nil, "posix_spawn_file_actions_addchdir_np"))
            _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&actions, 3)
            _ = unsafeBitCast(changeDirectory, to: ChangeDirectory.self)(&actions, directory)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
                sigaddset(&defaults, signal)
            }
            posix_spawnattr_setsigmask(&attributes, &unblocked)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            let failed = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            guard failed == 0 else { throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .EIO) }
            self.pid = pid
        }

        deinit { stop() }

        /// Whether it still runs; once it has ended, it is reaped.
        var isRunning: Bool {
            guard waitStatus == nil else { return false }
            var status: Int32 = 0
            switch waitpid(pid, &status, WNOHANG) {
            case 0: return true
            case pid: waitStatus = status
            default: waitStatus = -1
            }
            return false
        }

        /// The exit status, or 128 + the signal that ended it; nil while
        /// it runs.
        var exitStatus: Int32? {
            guard !isRunning, let status = waitStatus else { return nil }
            return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        }

        var stdout: String { Peer.text(stdoutPath) }
        var stderr: String { Peer.text(stderrPath) }

        func signal(_ number: Int32) { if isRunning { kill(pid, number) } }

        /// Waits up to `seconds` for the program to end; true if it did.
        func wait(upTo seconds: Double) -> Bool {
            FeedPipelineTests.eventually(seconds) { !isRunning }
        }

        /// Waits for the program to end, however long it takes.
        func waitForExit() -> Int32 {
            if waitStatus == nil {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                waitStatus = status
            }
            return exitStatus ?? -1
        }

        /// Kills the program and what it started, if they still run, so a
        /// failed test leaves none.
        func stop() {
            guard isRunning else { return }
            let family = ProcessTree.descendants(of: pid)
            kill(pid, SIGKILL)
            family.forEach { $0.stop() }
            _ = waitForExit()
        }

        func removeOutput() {
            try? FileManager.default.removeItem(atPath: stdoutPath)
            try? FileManager.default.removeItem(atPath: stderrPath)
        }
    }

    /// Processes by their parent, as /proc tells them.
    enum ProcessTree {
        /// One process, known by its id and its start time, so that a later
        /// process given the same id is never taken for it.
        struct Member: CustomStringConvertible {
            var pid: pid_t
            var started: UInt64
            var name: String

            /// Still running (a zombie counts as gone).
            var isAlive: Bool {
                guard let now = ProcessTree.stat(pid) else { return false }
                return now.started == started && now.state != "Z"
            }

            func stop() { if isAlive { kill(pid, SIGKILL) } }

            var description: String { "\(name) (\(pid))" }
        }

        /// State, parent, start time and name from /proc/PID/stat.
        static func stat(_ pid: pid_t) -> (state: Character, parent: pid_t, started: UInt64, name: String)? {
            let text = Peer.text("/proc/\(pid)/stat")
            // The name is in parentheses and may hold spaces and parentheses itself.
            guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
            let name = String(text[text.index(after: open)..<close])
            let fields = text[text.index(after: close)...].split(separator: " ")
            // After the name: state, ppid, …, starttime (the 22nd field of the whole line).
            guard fields.count > 19, let state = fields[0].first, let parent = pid_t(fields[1]), let started = UInt64(fields[19])
            else { return nil }
            return (state, parent, started, name)
        }

        /// Every living process descended from `root`, nearest first.
        static func descendants(of root: pid_t) -> [Member] {
            let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
            var children: [pid_t: [Member]] = [:]
            for pid in pids {
                guard let s = stat(pid), s.state != "Z" else { continue }
                children[s.parent, default: []].append(Member(pid: pid, started: s.started, name: s.name))
            }
            var found: [Member] = []
            var queue = [root]
            while !queue.isEmpty {
                let next = children[queue.removeFirst()] ?? []
                found += next
                queue += next.map(\.pid)
            }
            return found
        }

        /// Kills `root` and everything descended from it that still runs.
        static func stop(_ root: pid_t) {
            let family = descendants(of: root)
            if let s = stat(root), s.state != "Z" { kill(root, SIGKILL) }
            family.forEach { $0.stop() }
        }
    }
}
