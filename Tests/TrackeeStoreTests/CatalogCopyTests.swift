import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

/// The clients and projects a throwaway store (`trackee simulate`'s)
/// starts with: read from the real store without writing it, and copied
/// with their ids, types, billing and rates.
@Suite struct CatalogCopyTests {
    @Test func aThrowawayStoreGetsTheClientsAndProjectsWithTheirRatesAndNoJournal() throws {
        let real = try TemporaryStore()
        try real.store.addClient("Acme", now: nine)
        try real.store.addProject("Office", client: nil,
                                  changes: ProjectChanges(type: "internal", billable: true, rateCents: 8050), now: nine)
        try real.store.addProject("Docs", client: "Acme", changes: ProjectChanges(rateCents: 12000), now: nine)
        try real.store.addProject("Gone", client: nil, now: nine)
        _ = try real.store.apply(start("Docs", client: "Acme", at: at(minutes: 10)), now: at(minutes: 10))
        _ = try real.store.deleteProject("Gone", client: nil, confirmed: true, now: at(minutes: 20))
        let files = [real.path, real.path + "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: $0)) }

        let catalog = try Store.catalog(at: real.path)
        // Read only: the real store's files are as they were.
        #expect([real.path, real.path + "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: $0)) } == files)

        let scratch = try TemporaryStore()
        try scratch.store.seed(catalog)
        #expect(try scratch.store.projects() == [
            Project(id: 1, name: "Office", client: nil, type: "internal", billable: true, rateCents: 8050, entries: 0),
            Project(id: 2, name: "Docs", client: "Acme", type: nil, billable: false, rateCents: 12000, entries: 0),
        ])
        #expect(try scratch.store.clients() == [Client(id: 1, name: "Acme", projects: 1, entries: 0)])
        // Not a change made there: nothing to undo, push or replicate.
        #expect(try scratch.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM journal") } == 0)
        // A project a rule creates there gets an id after the copied ones.
        #expect(try scratch.store.addProject("New", client: nil, now: nine).id == 3)
    }

    @Test func noStoreIsAnEmptyCatalogAndCreatesNothing() throws {
        let scratch = try TemporaryStore()
        let path = scratch.directory.appendingPathComponent("nowhere.sqlite3").path
        #expect(try Store.catalog(at: path) == .empty)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
