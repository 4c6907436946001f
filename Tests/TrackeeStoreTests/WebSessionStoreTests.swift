import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

/// The web page's sign-in sessions: started for a live token, found by
/// their secret's hash until they expire, are signed out or their token
/// is revoked, and never stored in the clear.
@Suite struct WebSessionStoreTests {
    static let day: Int64 = 86_400

    /// A store with the token `phone` (read, start), made at nine.
    func store() throws -> TemporaryStore {
        let t = try TemporaryStore()
        _ = try t.store.addToken(name: "phone", scopes: [.read, .start], now: nine)
        return t
    }

    func stored(_ t: TemporaryStore) throws -> [[String]] {
        try t.store.read { db in
            try Row.fetchAll(db, sql: "SELECT hash, token, created, last_used, expires FROM web_session ORDER BY created")
                .map { row in
                    [row[0], row[1], String(row[2] as Int64), String(row[3] as Int64), String(row[4] as Int64)]
                }
        }
    }

    @Test func aSessionIsFoundByItsSecretsHashWithExactFields() throws {
        let t = try store()
        let secret = try t.store.startSession(token: "phone", now: at(minutes: 1), lifetime: 30 * Self.day)
        let hash = SHA256.hex(secret.utf8)
        let found = try #require(try t.store.session(secretHash: hash, now: at(minutes: 1) + 30))
        #expect(found.session == WebSession(
            id: String(hash.prefix(8)), token: "phone", created: at(minutes: 1), lastUsed: at(minutes: 1),
            expires: at(minutes: 1) + 30 * Self.day))
        // The token had never been used: this request is its first use.
        #expect(found.token == APIToken(name: "phone", scopes: [.start, .read], created: nine, lastUsed: at(minutes: 1) + 30))
        #expect(try t.store.sessions(now: at(minutes: 2)) == [found.session])
        #expect(try t.store.tokens().first?.lastUsed == at(minutes: 1) + 30)
    }

    /// The secret's shape, and the table's row: the hash, never the secret.
    @Test func theSecretIsItsDocumentedShapeAndTheTableHoldsItsHash() throws {
        let t = try store()
        let secret = try t.store.startSession(token: "phone", now: nine, lifetime: 3600)
        #expect(secret.hasPrefix("trs_"))
        #expect(secret.utf8.count == 47)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(secret.dropFirst(4).allSatisfy(alphabet.contains))
        let other = try t.store.startSession(token: "phone", now: nine, lifetime: 3600)
        #expect(other != secret)
        let rows = try stored(t).sorted { $0[0] < $1[0] }
        let hashes = [SHA256.hex(secret.utf8), SHA256.hex(other.utf8)].sorted()
        #expect(rows == hashes.map { [$0, "phone", "\(nine.seconds)", "\(nine.seconds)", "\(nine.seconds + 3600)"] })
        let everything = try t.store.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM web_session").flatMap { row in row.databaseValues.map(\.description) }
        }
        #expect(!everything.contains { $0.contains(secret.dropFirst(4)) || $0.contains(other.dropFirst(4)) })
    }

    @Test func anExpiredSessionIsNoneAndGoesAtTheNextSignIn() throws {
        let t = try store()
        let secret = try t.store.startSession(token: "phone", now: nine, lifetime: 3600)
        let hash = SHA256.hex(secret.utf8)
        #expect(try t.store.session(secretHash: hash, now: nine + 3599)?.session.expires == nine + 3600)
        #expect(try t.store.session(secretHash: hash, now: nine + 3600) == nil)
        #expect(try t.store.sessions(now: nine + 3600) == [])
        // Still in the table until a sign-in deletes it.
        #expect(try stored(t).map { $0[0] } == [hash])
        let next = try t.store.startSession(token: "phone", now: nine + 7200, lifetime: 3600)
        #expect(try stored(t).map { $0[0] } == [SHA256.hex(next.utf8)])
        #expect(try t.store.session(secretHash: hash, now: nine) == nil)
    }

    @Test func revokingTheTokenEndsItsSessionsInTheSameWrite() throws {
        let t = try store()
        _ = try t.store.addToken(name: "watch", scopes: [.read], now: nine)
        let one = try t.store.startSession(token: "phone", now: at(minutes: 1), lifetime: Self.day)
        let short = try t.store.startSession(token: "phone", now: at(minutes: 2), lifetime: 30)
        let two = try t.store.startSession(token: "phone", now: at(minutes: 2), lifetime: Self.day)
        let watch = try t.store.startSession(token: "watch", now: at(minutes: 2), lifetime: Self.day)
        #expect(try stored(t).count == 4)
        // The expired one is deleted too, but was no live session.
        #expect(try t.store.revoke(token: "phone", now: at(minutes: 3)) == 2)
        for secret in [short, one, two] {
            #expect(try t.store.session(secretHash: SHA256.hex(secret.utf8), now: at(minutes: 4)) == nil)
        }
        #expect(try stored(t).map { $0[0] } == [SHA256.hex(watch.utf8)])
        #expect(try t.store.session(secretHash: SHA256.hex(watch.utf8), now: at(minutes: 4))?.token.name == "watch")
        #expect(try t.store.revoke(token: "phone", now: at(minutes: 5)) == nil)
        #expect(try t.store.revoke(token: "tablet", now: at(minutes: 5)) == nil)
        #expect(throws: StoreError.tokenRevoked("phone")) {
            try t.store.startSession(token: "phone", now: at(minutes: 6), lifetime: Self.day)
        }
        #expect(StoreError.tokenRevoked("phone").description == "token \"phone\" is revoked; it cannot sign in")
        #expect(try t.store.revokeToken(name: "watch", now: at(minutes: 7)))
        #expect(try stored(t).isEmpty)
        #expect(try t.store.tokens().map(\.revoked) == [at(minutes: 3), at(minutes: 7)])
    }

    @Test func signingOutEndsTheSessionOnly() throws {
        let t = try store()
        let secret = try t.store.startSession(token: "phone", now: nine, lifetime: Self.day)
        let other = try t.store.startSession(token: "phone", now: nine, lifetime: Self.day)
        #expect(try t.store.endSession(secretHash: SHA256.hex(secret.utf8)))
        #expect(try t.store.session(secretHash: SHA256.hex(secret.utf8), now: at(minutes: 1)) == nil)
        #expect(try !t.store.endSession(secretHash: SHA256.hex(secret.utf8)))
        #expect(try !t.store.endSession(secretHash: secret))
        #expect(try t.store.session(secretHash: SHA256.hex(other.utf8), now: at(minutes: 1)) != nil)
        #expect(try t.store.tokens().first?.revoked == nil)
    }

    /// The session's and the token's last use are each written at most
    /// once a minute, each against its own last write.
    @Test func lastUsedIsWrittenOnlyAfterAMinute() throws {
        let t = try store()
        let hash = SHA256.hex(try t.store.startSession(token: "phone", now: nine, lifetime: Self.day).utf8)
        func uses(_ seconds: Int64) throws -> [Instant?] {
            let found = try t.store.session(secretHash: hash, now: nine + seconds)
            let session = try t.store.sessions(now: nine + seconds).first
            return [found?.session.lastUsed, found?.token.lastUsed, session?.lastUsed, try t.store.tokens().first?.lastUsed]
        }
        #expect(try uses(10) == [nine, nine + 10, nine, nine + 10])
        #expect(try uses(59) == [nine, nine + 10, nine, nine + 10])
        #expect(try uses(60) == [nine + 60, nine + 10, nine + 60, nine + 10])
        #expect(try uses(69) == [nine + 60, nine + 10, nine + 60, nine + 10])
        #expect(try uses(70) == [nine + 60, nine + 70, nine + 60, nine + 70])
        #expect(try uses(120) == [nine + 120, nine + 70, nine + 120, nine + 70])
        #expect(try stored(t).first?[3] == "\(nine.seconds + 120)")
    }

    @Test func anUnknownTokenCannotSignIn() throws {
        let t = try store()
        #expect(throws: StoreError.unknownToken("tablet")) {
            try t.store.startSession(token: "tablet", now: nine, lifetime: Self.day)
        }
        #expect(StoreError.unknownToken("tablet").description == "no token named \"tablet\"; `trackee tokens list` lists them")
        #expect(try stored(t).isEmpty)
    }

    /// A hash one digit off, the secret itself, a token's secret and its
    /// hash find nothing.
    @Test func onlyTheSessionsOwnHashFindsIt() throws {
        let t = try TemporaryStore()
        let token = try t.store.addToken(name: "phone", scopes: [.read], now: nine)
        let secret = try t.store.startSession(token: "phone", now: nine, lifetime: Self.day)
        var wrong = Array(SHA256.hex(secret.utf8).utf8)
        wrong[30] = wrong[30] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        for presented in [String(decoding: wrong, as: UTF8.self), secret, token, SHA256.hex(token.utf8), "", "trs_"] {
            #expect(try t.store.session(secretHash: presented, now: at(minutes: 1)) == nil)
        }
        #expect(try t.store.authenticate(secret: secret, now: at(minutes: 1)) == nil)
    }

    @Test func sessionsListByTokenThenSignIn() throws {
        let t = try store()
        _ = try t.store.addToken(name: "laptop", scopes: [.read], now: nine)
        let later = try t.store.startSession(token: "phone", now: at(minutes: 5), lifetime: Self.day)
        let earlier = try t.store.startSession(token: "phone", now: at(minutes: 1), lifetime: Self.day)
        let laptop = try t.store.startSession(token: "laptop", now: at(minutes: 9), lifetime: 2 * Self.day)
        let gone = try t.store.startSession(token: "laptop", now: at(minutes: 2), lifetime: 60)
        func id(_ secret: String) -> String { String(SHA256.hex(secret.utf8).prefix(8)) }
        #expect(try t.store.sessions(now: at(minutes: 10)) == [
            WebSession(id: id(laptop), token: "laptop", created: at(minutes: 9), lastUsed: at(minutes: 9),
                       expires: at(minutes: 9) + 2 * Self.day),
            WebSession(id: id(earlier), token: "phone", created: at(minutes: 1), lastUsed: at(minutes: 1),
                       expires: at(minutes: 1) + Self.day),
            WebSession(id: id(later), token: "phone", created: at(minutes: 5), lastUsed: at(minutes: 5),
                       expires: at(minutes: 5) + Self.day),
        ])
        #expect(try t.store.sessions(now: at(minutes: 2)).map(\.id) == [id(gone), id(laptop), id(earlier), id(later)])
    }

    /// A store of migration v22 gains the table, empty, and the schema
    /// version 23.
    @Test func anOlderStoreGainsTheTableEmpty() throws {
        let old = try OlderStore(upTo: "v22-desk-cursor") { db in
            try db.execute(sql: "INSERT INTO api_token (name, hash, scopes, created) VALUES ('phone', 'x', 'read', 1)")
        }
        let store = try Store(path: old.path)
        #expect(try store.sessions(now: nine).isEmpty)
        let secret = try store.startSession(token: "phone", now: nine, lifetime: 60)
        #expect(try store.session(secretHash: SHA256.hex(secret.utf8), now: nine)?.token.name == "phone")
        #expect(try store.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 23)
    }
}
