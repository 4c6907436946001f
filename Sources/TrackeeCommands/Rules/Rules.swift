import ArgumentParser

extension Trackee {
    struct Rules: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            abstract: "Check rule files, list upcoming schedule and calendar firings, and say why rules fired or did not.",
            discussion: "Rule files are described in trackee-rules(5).",
            subcommands: [Check.self, Next.self, Why.self])
    }
}
