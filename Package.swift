// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Trackee",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "trackee", targets: ["trackee"]),
        .executable(name: "trackee-sync", targets: ["trackee-sync"]),
        .executable(name: "trackee-daemon", targets: ["trackee-daemon"]),
        .executable(name: "trackee-report", targets: ["trackee-report"]),
        .library(name: "TrackeeCore", targets: ["TrackeeCore"]),
        .library(name: "TrackeeStore", targets: ["TrackeeStore"]),
        .library(name: "TrackeeSchedule", targets: ["TrackeeSchedule"]),
        .library(name: "TrackeeRules", targets: ["TrackeeRules"]),
        .library(name: "TrackeeCalendar", targets: ["TrackeeCalendar"]),
        .library(name: "TrackeeLocation", targets: ["TrackeeLocation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
    ],
    targets: [
        .target(name: "TrackeeCore"),
        .target(name: "TrackeeSchedule", dependencies: ["TrackeeCore"]),
        .systemLibrary(name: "CLibical", pkgConfig: "libical", providers: [.apt(["libical-dev"])]),
        .target(name: "CLibicalZoneFix"),
        .target(name: "TrackeeCalendar", dependencies: ["TrackeeCore", "CLibical", "CLibicalZoneFix"]),
        .target(name: "TrackeeLocation", dependencies: ["TrackeeCore"]),
        // Pushing to Clockify and Toggl Track: libcurl, in a second,
        // dynamically linked executable that `trackee sync` runs, so the
        // static `trackee` carries none of it.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "TrackeePush", dependencies: ["TrackeeCore", "TrackeeStore", "CCurl"]),
        .executableTarget(name: "trackee-sync", dependencies: ["TrackeeCore", "TrackeeStore", "TrackeePush"]),
        // The desk's system sources: libdbus-1, linked into `trackee` (the
        // static libdbus-1.a; BENCHMARKS.md has its start-up cost).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "CDBusStatic"),
        .target(name: "TrackeeDesk", dependencies: ["TrackeeCore", "CDBus", "CDBusStatic"]),
        .target(name: "TrackeeRules", dependencies: ["TrackeeCore", .product(name: "Yams", package: "Yams")]),
        // `trackee import`'s readers of other trackers' files.
        .target(name: "TrackeeImport", dependencies: ["TrackeeCore", "TrackeeStore"]),
        // Reports (`trackee report`): the computed report every format is
        // drawn from, its builder and its text renderers.
        .target(name: "TrackeeReport", dependencies: ["TrackeeCore", "TrackeeStore"]),
        // The report as PDF (cairo) and XLSX (libxlsxwriter), in a third
        // dynamically linked executable that `trackee report --format
        // pdf|xlsx` runs with the report's JSON on its stdin, so neither
        // library is linked into `trackee` or loaded by its other commands.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CXlsxWriter", pkgConfig: "xlsxwriter", providers: [.apt(["libxlsxwriter-dev"])]),
        .target(name: "TrackeeReportFiles", dependencies: ["TrackeeCore", "TrackeeReport", "CCairo", "CXlsxWriter"]),
        .executableTarget(name: "trackee-report", dependencies: ["TrackeeReport", "TrackeeReportFiles"]),
        .target(
            name: "TrackeeStore",
            dependencies: [
                "TrackeeCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // Replication through the PostgreSQL hub, all of it: the hub's
        // schema, its client (libpq, static in the release build, with
        // CLibpqStatic's stand-ins for the GSSAPI and LDAP it refers to),
        // the merge, `hub sync` and `trackee run`'s replication service.
        // Linked only into `trackee-daemon`, as the HTTP server is.
        .systemLibrary(name: "CLibpq", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "CLibpqStatic"),
        .target(
            name: "TrackeeReplication",
            dependencies: [
                "TrackeeCore", "TrackeeStore", "TrackeeDaemon", "CLibpq", "CLibpqStatic",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The HTTP API's request-to-answer layer: routes, JSON views shared
        // with the CLI, problems, idempotency. No sockets; the server hands
        // it parsed requests. Event bodies are decoded here with
        // TrackeeAutomation's event lines, and the daemon gets typed values.
        .target(
            name: "TrackeeAPI",
            dependencies: [
                "TrackeeCore", "TrackeeStore", "TrackeeAutomation", "TrackeeReport", .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("openapi.json")]),
        // The HTTP API's server (issue 20): SwiftNIO's HTTP/1.1 under
        // TrackeeAPI, as a service of `trackee run`. Plain HTTP only: TLS is
        // a reverse proxy's (recipes/http), since NIOSSL's BoringSSL alone
        // took 3 of the test build's 8.5 minutes (BENCHMARKS.md).
        .target(
            name: "TrackeeHTTP",
            dependencies: [
                "TrackeeCore", "TrackeeStore", "TrackeeAPI", "TrackeeDaemon",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The web page at `/` of `trackee run`'s HTTP listener (issue 38):
        // sign-in sessions, the timer, today, the week, why; its HTML, CSS
        // and script compiled in. Linked only into `trackee-daemon`.
        .target(
            name: "TrackeeWeb",
            dependencies: [
                "TrackeeCore", "TrackeeStore", "TrackeeAPI", "TrackeeReport", "TrackeeAutomation", "TrackeeDaemon",
            ],
            resources: [.embedInCode("Assets/page.css"), .embedInCode("Assets/page.js"), .embedInCode("Assets/icon.svg")]),
        // The settings file (config.yaml), read and checked by every
        // command: its own module so that it is tested without the binary.
        .target(
            name: "TrackeeSettings",
            dependencies: ["TrackeeCore", "TrackeeStore", "TrackeeAPI", "TrackeeDesk", .product(name: "Yams", package: "Yams")]),
        // What the one-shot commands and `run` share: the runner, the
        // trigger sources, rule and calendar files, the feed run, event
        // lines (which find the desk kinds in TrackeeDesk's registry).
        .target(
            name: "TrackeeAutomation",
            dependencies: [
                "TrackeeCore", "TrackeeStore", "TrackeeRules", "TrackeeSchedule", "TrackeeCalendar", "TrackeeLocation",
                "TrackeeDesk", .product(name: "Logging", package: "swift-log"),
            ]),
        // Only the long-running parts of `run`.
        .target(
            name: "TrackeeDaemon",
            dependencies: [
                "TrackeeCore", "TrackeeStore", "TrackeeRules", "TrackeeCalendar", "TrackeeLocation", "TrackeeAutomation",
                "TrackeeDesk",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Every command of the command line; `trackee` is its entry point.
        .target(
            name: "TrackeeCommands",
            dependencies: [
                "TrackeeCore",
                "TrackeeStore",
                "TrackeeRules",
                "TrackeeCalendar",
                "TrackeeLocation",
                "TrackeeAutomation",
                "TrackeeDaemon",
                "TrackeeAPI",
                "TrackeeImport",
                "TrackeeReport",
                "TrackeeSettings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .executableTarget(name: "trackee", dependencies: ["TrackeeCommands"]),
        // The same commands with the HTTP API's server and replication
        // through the hub linked in: SwiftNIO would cost every one-shot
        // command 10 % more instructions at start-up (BENCHMARKS.md), and
        // libpq is needed only there, so only the daemon carries them.
        // `trackee run` execs it when the settings have `http:` or `hub:`,
        // and `trackee hub init|sync|grant|revoke|check|limit` always.
        .executableTarget(name: "trackee-daemon", dependencies: ["TrackeeCommands", "TrackeeHTTP", "TrackeeReplication", "TrackeeWeb"]),
        .target(name: "TrackeeBenchSupport", dependencies: ["TrackeeCore", "TrackeeRules"], path: "Benchmarks/TrackeeBenchSupport"),
        .executableTarget(name: "trackee-bench-rules", dependencies: ["TrackeeBenchSupport"], path: "Benchmarks/RuleEvaluation"),
        // The pure merge alone (make bench, beside bench/hub/run.sh's pull).
        .executableTarget(
            name: "trackee-bench-merge", dependencies: ["TrackeeCore", "TrackeeStore", "TrackeeReplication"],
            path: "Benchmarks/MergeStep"),
        .target(name: "TrackeeTestSupport", path: "Tests/Support"),
        .executableTarget(name: "trackee-calendar-leaks", dependencies: ["TrackeeCore", "TrackeeCalendar"], path: "Tests/CalendarLeakCheck"),
        .testTarget(
            name: "TrackeeReplicationTests",
            dependencies: [
                "TrackeeCore", "TrackeeStore", "TrackeeReplication", "TrackeeTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "TrackeeCoreTests", dependencies: ["TrackeeCore", "TrackeeTestSupport"]),
        // The report's builder and renderers; Browser/ holds the HTML's
        // check in headless Chromium (Debian's python3-selenium).
        .testTarget(
            name: "TrackeeReportTests", dependencies: ["TrackeeCore", "TrackeeStore", "TrackeeReport", "TrackeeTestSupport"],
            exclude: ["Browser"]),
        .testTarget(name: "TrackeeImportTests", dependencies: ["TrackeeCore", "TrackeeStore", "TrackeeImport"]),
        .testTarget(
            name: "TrackeeDaemonTests",
            dependencies: [
                "TrackeeCore", "TrackeeStore", "TrackeeRules", "TrackeeAutomation", "TrackeeDaemon", "TrackeeTestSupport",
                // HubReplicationTests: trackee run's replication on a manual clock.
                "TrackeeReplication",
                // StandardServicesTests: the clock the desk's threads are handed.
                "TrackeeDesk",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]),
        .testTarget(
            name: "TrackeeAutomationTests",
            dependencies: [
                "TrackeeCore", "TrackeeAutomation", "TrackeeRules", "TrackeeStore", "TrackeeCalendar", "TrackeeTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Its DeskRunTests run the built `trackee run` and read its store.
        .testTarget(
            name: "TrackeeDeskTests",
            dependencies: [
                "TrackeeCore", "TrackeeDesk", "TrackeeTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "TrackeeAPITests",
            dependencies: ["TrackeeCore", "TrackeeStore", "TrackeeAPI", "TrackeeReport", "TrackeeWeb", "TrackeeAutomation",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TrackeeRulesTests", dependencies: ["TrackeeCore", "TrackeeRules"]),
        .testTarget(name: "TrackeeScheduleTests", dependencies: ["TrackeeCore", "TrackeeSchedule"]),
        .testTarget(name: "TrackeeCalendarTests", dependencies: ["TrackeeCore", "TrackeeCalendar", "TrackeeTestSupport"], exclude: ["Calendars"]),
        .testTarget(name: "TrackeeLocationTests", dependencies: ["TrackeeCore", "TrackeeLocation", "TrackeeTestSupport"]),
        .testTarget(
            name: "TrackeeStoreTests",
            dependencies: ["TrackeeCore", "TrackeeStore", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "TrackeeSettingsTests",
            dependencies: ["TrackeeCore", "TrackeeStore", "TrackeeAPI", "TrackeeDesk", "TrackeeSettings", "TrackeeTestSupport"]),
        // Runs the built `trackee-report` and reads its files with
        // poppler-utils (pdftotext, pdffonts, pdftoppm) and openpyxl.
        .testTarget(
            name: "TrackeeReportFilesTests",
            dependencies: ["TrackeeCore", "TrackeeReport", "TrackeeReportFiles", "TrackeeTestSupport"], exclude: ["read_xlsx.py"]),
        .testTarget(name: "TrackeePushTests", dependencies: ["TrackeeCore", "TrackeeStore", "TrackeePush", "TrackeeTestSupport"]),
        // Issue 20 §5 under load: one key sent 200 times at once, SIGKILLs
        // under keyed requests, fuzzed requests; the built `trackee run`
        // against Python clients (Clients/).
        .testTarget(
            name: "TrackeeHTTPLoadTests",
            dependencies: ["TrackeeTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Clients"]),
        // Browser/ holds the web page's use in headless Chromium
        // (WebBrowserTests; Debian's python3-selenium).
        .testTarget(
            name: "TrackeeCLITests",
            dependencies: [
                "TrackeeTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                // The Home Assistant recipe's YAML, read as Home Assistant does.
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["Browser"]),
        // The HTTP API through the real daemon and real clients (curl,
        // Python's http.client); Clients/ holds the Python ones.
        .testTarget(
            name: "TrackeeHTTPTests",
            dependencies: ["TrackeeTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Clients"]),
    ],
    swiftLanguageModes: [.v6]
)
