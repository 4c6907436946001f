import Testing
@testable import TrackeeStore

/// A row's journal image is written by Core's one JSON string writer: the
/// bytes are what the journal, undo and the hub read back.
@Suite struct JournalImageTests {
    @Test func anEntrysImageEscapesQuotesBackslashesAndControlCharacters() {
        let entry = EntryRecord(
            id: 7, projectID: nil, description: "say \"hi\"\\\n\t\u{1}é", tags: "a,b", start: 100, end: nil,
            source: "cli", created: 90, updated: 95)
        #expect(entry.image == #"{"id":7,"project_id":null,"description":"say \"hi\"\\\n\t\u0001é","tags":"a,b","start":100,"end":null,"source":"cli","created":90,"updated":95}"#)
    }

    @Test func aClientsImageIsItsThreeColumns() {
        #expect(ClientRecord(id: 3, name: "Acme", created: 1).image == #"{"id":3,"name":"Acme","created":1}"#)
    }
}
