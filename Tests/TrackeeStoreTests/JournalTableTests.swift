import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

/// Each table's columns are written once (a record's `columns`,
/// `HubLoggedIntent.columns`), and every form that names them is made
/// from that list: these check each form against the list and against
/// the schema.
@Suite struct JournalTableTests {
    @Test func eachTablesLayoutIsItsRecordsList() {
        #expect(JournalTable.client.columns == ["id", "name", "created"])
        #expect(JournalTable.client.columns == ["id"] + ClientRecord.columns.map(\.name))
        #expect(JournalTable.client.fields == ["_exists", "name", "created"])
        #expect(JournalTable.client.fieldKinds == [.flag, .text, .integer])

        #expect(JournalTable.project.columns == ["id", "client_id", "name", "type", "billable", "rate_cents", "created"])
        #expect(JournalTable.project.columns == ["id"] + ProjectRecord.columns.map(\.name))
        #expect(JournalTable.project.fields == ["_exists", "client_id", "name", "type", "billable", "rate_cents", "created"])
        #expect(JournalTable.project.fieldKinds
            == [.flag, .optionalInteger, .text, .optionalText, .flag, .optionalInteger, .integer])

        #expect(JournalTable.entry.columns
            == ["id", "project_id", "description", "tags", "start", "end", "source", "created", "updated"])
        #expect(JournalTable.entry.columns == ["id"] + EntryRecord.columns.map(\.name))
        #expect(JournalTable.entry.fieldKinds
            == [.flag, .optionalInteger, .text, .text, .integer, .optionalInteger, .text, .integer, .integer])
        #expect(JournalTable.entry.field("end") == 5)
        #expect(JournalTable.entry.field("id") == nil)
    }

    /// The numbers the merge reads fields by.
    @Test func theMergesFieldNumbersNameTheirColumns() {
        #expect(JournalTable.entry.fields[JournalTable.existsField] == "_exists")
        #expect(JournalTable.entry.fields[JournalTable.entryProject] == "project_id")
        #expect(JournalTable.entry.fields[JournalTable.entryStart] == "start")
        #expect(JournalTable.entry.fields[JournalTable.entryEnd] == "end")
        #expect(JournalTable.project.fields[JournalTable.projectClient] == "client_id")
        #expect(JournalTable.project.fields[JournalTable.projectName] == "name")
        #expect(JournalTable.client.fields[JournalTable.clientName] == "name")
    }

    @Test func theInsertNamesEveryColumnInTheListsOrder() {
        #expect(JournalTable.entry.insert == """
            INSERT INTO entry ("id", "project_id", "description", "tags", "start", "end", "source", "created", "updated") \
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        #expect(JournalTable.client.insert == #"INSERT INTO client ("id", "name", "created") VALUES (?, ?, ?)"#)
        #expect(JournalTable.project.insertHead
            == #"INSERT INTO project ("id", "client_id", "name", "type", "billable", "rate_cents", "created")"#)
    }

    /// A record encodes, decodes and images itself under its list's
    /// names, which are its table's columns in the schema.
    @Test func aRecordEncodesDecodesAndImagesUnderItsColumns() throws {
        let project = ProjectRecord(
            id: 4, clientID: 3, name: "Docs", type: "internal", billable: true, rateCents: 9000, created: 12)
        #expect(try project.databaseDictionary == [
            "id": 4.databaseValue, "client_id": 3.databaseValue, "name": "Docs".databaseValue,
            "type": "internal".databaseValue, "billable": 1.databaseValue, "rate_cents": 9000.databaseValue,
            "created": 12.databaseValue,
        ])
        #expect(project.values == [.integer(4), .integer(3), .text("Docs"), .text("internal"), .integer(1), .integer(9000),
                                   .integer(12)])
        #expect(project.image
            == #"{"id":4,"client_id":3,"name":"Docs","type":"internal","billable":1,"rate_cents":9000,"created":12}"#)
        #expect(ProjectRecord(row: Row(try project.databaseDictionary)) == project)
        let bare = ProjectRecord(clientID: nil, name: "Ops", billable: false, created: 1)
        #expect(bare.image == #"{"id":null,"client_id":null,"name":"Ops","type":null,"billable":0,"rate_cents":null,"created":1}"#)
        #expect(ProjectRecord(row: Row(try bare.databaseDictionary)) == bare)

        let t = try TemporaryStore()
        let queue = try DatabaseQueue(path: t.path)
        defer { try? queue.close() }
        for table in JournalTable.allCases {
            let schema = try queue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table.rawValue])
            }
            #expect(schema == table.columns, "\(table)")
        }
    }

    /// A row applied here goes in with the one prepared INSERT and comes
    /// back as it went in.
    @Test func anEntryInsertedWithThePreparedInsertReadsBackWhole() throws {
        let t = try TemporaryStore()
        let queue = try DatabaseQueue(path: t.path)
        defer { try? queue.close() }
        let entry = try queue.write { db in
            var entry = EntryRecord(
                projectID: nil, description: "say \"hi\"", tags: "a,b", start: 100, end: 200, source: "cli", created: 90,
                updated: 95)
            let image = try entry.insert(db, prepared: db.cachedStatement(sql: JournalTable.entry.insert))
            #expect(image == entry.image)
            return entry
        }
        #expect(entry.id == 1)
        #expect(entry.image
            == #"{"id":1,"project_id":null,"description":"say \"hi\"","tags":"a,b","start":100,"end":200,"source":"cli","created":90,"updated":95}"#)
        let read = try queue.read { db in try EntryRecord.fetchOne(db, sql: "SELECT * FROM entry WHERE id = 1") }
        #expect(read == entry)
    }

    /// Each length a row's arguments are made at: a literal for nine,
    /// eleven and twelve values, the sequence for any other.
    @Test func aRowsArgumentsAreItsValuesThenTheRest() {
        let nine: [HubValue] = [.integer(1), .null, .text("a"), .text(""), .integer(5), .null, .text("cli"), .integer(8),
                                .integer(9)]
        #expect(StatementArguments(values: nine) == [1, nil, "a", "", 5, nil, "cli", 8, 9])
        #expect(StatementArguments(values: Array(nine.prefix(8)), then: 10) == [1, nil, "a", "", 5, nil, "cli", 8, 10])
        #expect(StatementArguments(values: nine + [.text("k")], then: nil) == [1, nil, "a", "", 5, nil, "cli", 8, 9, "k", nil])
        #expect(StatementArguments(values: nine + [.null], then: "laptop", "desk")
            == [1, nil, "a", "", 5, nil, "cli", 8, 9, nil, "laptop", "desk"])
        #expect(StatementArguments(values: [.integer(3), .text("Acme")], then: 1) == [3, "Acme", 1])
        #expect(StatementArguments(values: []) == [])
    }

    @Test func theIntentLogsFormsAreMadeFromItsList() {
        #expect(HubLoggedIntent.columns.map(\.name) == [
            "applied", "at", "source", "action", "parameters", "outcome", "entry_id", "previous_entry_id", "key", "firing",
        ])
        #expect(HubKeys.intentLedger == """
            SELECT json_object('applied', l.applied, 'at', l.at, 'source', l.source, 'action', l.action, \
            'parameters', l.parameters, 'outcome', l.outcome, 'entry_id', l.entry_id, \
            'previous_entry_id', l.previous_entry_id, 'fired', f.fired)
            FROM firing f JOIN intent_log l ON l.id = f.intent_id WHERE f.key = ?2
            """)
        #expect(HubLoggedIntent.insert(adding: "replay_of") == """
            INSERT INTO intent_log (applied, at, source, action, parameters, outcome, entry_id, previous_entry_id, key, \
            firing, replay_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let row = HubLoggedIntent(
            applied: 20, at: 10, source: "rule(lunch)", action: "stop", parameters: #"{"at":10}"#, outcome: "stopped",
            entryID: 7, previousEntryID: nil, key: nil, firing: "lunch@10")
        let json = HubKeys.logRow(row)
        #expect(json == #"{"applied":20,"at":10,"source":"rule(lunch)","action":"stop","parameters":"{\"at\":10}","outcome":"stopped","entry_id":7,"previous_entry_id":null,"key":null,"firing":"lunch@10"}"#)
        let members: [String: HubValue] = [
            "applied": .integer(20), "at": .integer(10), "source": .text("rule(lunch)"), "action": .text("stop"),
            "parameters": .text(#"{"at":10}"#), "outcome": .text("stopped"), "entry_id": .integer(7),
            "firing": .text("lunch@10"),
        ]
        // An optional column left out reads as null.
        #expect(HubLoggedIntent(reading: { members[$0] ?? .null }) == row)
        // A required one left out, or of another kind, is not a row.
        #expect(HubLoggedIntent(reading: { $0 == "outcome" ? .null : members[$0] ?? .null }) == nil)
        #expect(HubLoggedIntent(reading: { $0 == "at" ? .text("10") : members[$0] ?? .null }) == nil)
        #expect(HubLoggedIntent(reading: { $0 == "key" ? .integer(1) : members[$0] ?? .null }) == nil)
        #expect(HubLoggedIntent(reading: { $0 == "source" ? nil : members[$0] ?? .null }) == nil)
    }

    /// The ledger row a keyed intent keeps for the hub, as SQLite writes
    /// it from the generated `json_object`.
    @Test func aKeyedIntentsLedgerRowIsItsLogRowAndWhenItFired() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        _ = try t.store.apply(Intent(.stop, at: at(minutes: 5), key: "k1"), now: at(minutes: 6))
        let queue = try DatabaseQueue(path: t.path)
        defer { try? queue.close() }
        let ledger = try queue.read { db in
            try String.fetchOne(db, sql: HubKeys.intentLedger, arguments: [nil, "k1"])
        }
        let a = at(minutes: 5).seconds, applied = at(minutes: 6).seconds
        #expect(ledger == """
            {"applied":\(applied),"at":\(a),"source":"cli","action":"stop","parameters":"{\\"at\\":\(a)}",\
            "outcome":"stopped","entry_id":1,"previous_entry_id":null,"fired":\(applied)}
            """)
    }
}
