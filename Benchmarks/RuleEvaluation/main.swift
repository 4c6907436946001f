// Rule evaluation speed: 1,000 rules read from YAML, one focus event at a
// time through RuleEngine.evaluate. Every rule listens to the event and has
// four conditions; the last one fails, so each evaluation checks all four
// conditions of all 1,000 rules and builds no firing. Prints condition
// evaluations per second (median of the rounds) for BENCHMARKS.md.
import TrackeeBenchSupport

BenchRules.main()
