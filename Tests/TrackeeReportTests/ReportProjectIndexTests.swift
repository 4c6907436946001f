import Testing
@testable import TrackeeReport

/// Which project a day's slice or a project group is of, when two
/// projects share a name (Docs of Acme, Docs of Globex): what the HTML,
/// the PDF and the XLSX colour and count by.
@Suite struct ReportProjectIndexTests {
    static let report = ReportFixture.make(
        .summary,
        projects: [.init(name: "Docs", client: "Acme", billable: false, rate: nil),
                   .init(name: "Web", client: nil, billable: false, rate: nil)],
        entries: [.init(id: "1", day: 0, start: "09:00", end: "11:00", project: "Docs", description: ""),
                  .init(id: "2", day: 0, start: "11:00", end: "12:00", project: "Web", description: "")])
    /// The same with a second Docs, Globex's, ranked between the two.
    static func twoDocs() -> Report {
        var report = report
        report.projects.insert(ReportProject(name: "Docs", client: "Globex", billable: false, color: "#000000", seconds: 5400), at: 1)
        return report
    }

    @Test func aSliceIsOfTheProjectOfItsNameAndClient() {
        let index = ReportProjectIndex(Self.twoDocs())
        #expect(index[ReportSlice(name: "Docs", seconds: 1, client: "Acme")] == 0)
        #expect(index[ReportSlice(name: "Docs", seconds: 1, client: "Globex")] == 1)
        #expect(index[ReportSlice(name: "Web", seconds: 1)] == 2)
        #expect(index[ReportSlice(name: "Docs", seconds: 1, client: "Initech")] == nil)
        // Without its client (JSON from before slices had one): by its name
        // when one project has it, else none.
        #expect(index[ReportSlice(name: "Docs", seconds: 1)] == nil)
        #expect(ReportProjectIndex(Self.report)[ReportSlice(name: "Docs", seconds: 1)] == 0)
    }

    @Test func aGroupIsOfTheProjectOfItsNameItsClientGroupOrItsLabel() {
        let report = Self.twoDocs()
        let index = ReportProjectIndex(report)
        let totals = ReportTotals(seconds: 1, billableSeconds: 0, nonBillableSeconds: 1, amountCents: nil, entries: 1)
        let group = { (label: String) in ReportGroup(name: "Docs", label: label, totals: totals, groups: []) }
        #expect(index.project(of: group("Docs (Globex)"), in: nil, report) == 1)
        #expect(index.project(of: group("Docs (Acme)"), in: nil, report) == 0)
        #expect(index.project(of: group("Docs"), in: nil, report) == nil)
        var byClient = report
        byClient.grouping = [.client, .project]
        let globex = ReportGroup(name: "Globex", label: "Globex", totals: totals, groups: [group("Docs")])
        #expect(index.project(of: group("Docs"), in: globex, byClient) == 1)
        let web = ReportGroup(name: "Web", label: "Web", totals: totals, groups: [])
        #expect(index.project(of: web, in: nil, report) == 2)
    }
}
