import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

/// The HTTP API's per-device tokens: made, listed, revoked, authenticated,
/// and never stored in the clear.
@Suite struct TokenStoreTests {
    @Test func addMakesASecretOfTheDocumentedShapeAndListsTheToken() throws {
        let t = try TemporaryStore()
        let secret = try t.store.addToken(name: "phone", scopes: [.stop, .start], now: nine)
        #expect(secret.hasPrefix("trk_"))
        #expect(secret.utf8.count == 47)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(secret.dropFirst(4).allSatisfy(alphabet.contains))
        #expect(try t.store.tokens() == [APIToken(name: "phone", scopes: [.start, .stop], created: nine)])
        let stored = try t.store.read { db in try Row.fetchOne(db, sql: "SELECT hash, scopes FROM api_token") }
        #expect(stored?["hash"] == SHA256.hex(secret.utf8))
        #expect(stored?["scopes"] == "start,stop")
    }

    @Test func twoTokensHaveDifferentSecretsAndListByName() throws {
        let t = try TemporaryStore()
        let one = try t.store.addToken(name: "watch", scopes: [.read], now: nine)
        let two = try t.store.addToken(name: "home-assistant", scopes: TokenScope.allCases, now: at(minutes: 1))
        #expect(one != two)
        #expect(try t.store.tokens() == [
            APIToken(name: "home-assistant", scopes: [.start, .stop, .cancel, .read, .events, .owntracks], created: at(minutes: 1)),
            APIToken(name: "watch", scopes: [.read], created: nine),
        ])
    }

    @Test func aTakenNameIsRefusedEvenWhenRevoked() throws {
        let t = try TemporaryStore()
        _ = try t.store.addToken(name: "phone", scopes: [.read], now: nine)
        #expect(throws: StoreError.tokenExists("phone")) { try t.store.addToken(name: "phone", scopes: [.start], now: nine) }
        #expect(try t.store.revokeToken(name: "phone", now: at(minutes: 1)))
        #expect(throws: StoreError.tokenExists("phone")) { try t.store.addToken(name: "phone", scopes: [.start], now: nine) }
        #expect(try t.store.tokens().map(\.scopes) == [[.read]])
        #expect(StoreError.tokenExists("phone").description
            == "a token named \"phone\" exists already (revoked tokens keep their names); choose another name")
    }

    @Test(arguments: ["", "my phone", "phone/1", "tablet\n", "ü", String(repeating: "a", count: 65)])
    func badNamesAreRefused(_ name: String) throws {
        let t = try TemporaryStore()
        #expect(throws: StoreError.invalidTokenName(name)) { try t.store.addToken(name: name, scopes: [.read], now: nine) }
        #expect(try t.store.tokens().isEmpty)
    }

    @Test func namesOfEveryAllowedCharacterAndSixtyFourLong() throws {
        let t = try TemporaryStore()
        let long = String(repeating: "z", count: 64)
        _ = try t.store.addToken(name: "A.b_c-9", scopes: [.read], now: nine)
        _ = try t.store.addToken(name: long, scopes: [.read], now: nine)
        #expect(try t.store.tokens().map(\.name) == ["A.b_c-9", long])
        #expect(StoreError.invalidTokenName("my phone").description
            == "token name \"my phone\" is not 1 to 64 letters, digits, dots, underscores or hyphens; choose a name such as phone or home-assistant")
    }

    @Test func revokeIsFalseForAMissingOrRevokedTokenAndKeepsTheFirstTime() throws {
        let t = try TemporaryStore()
        _ = try t.store.addToken(name: "phone", scopes: [.read], now: nine)
        #expect(try !t.store.revokeToken(name: "tablet", now: at(minutes: 1)))
        #expect(try t.store.revokeToken(name: "phone", now: at(minutes: 2)))
        #expect(try !t.store.revokeToken(name: "phone", now: at(minutes: 3)))
        #expect(try t.store.tokens() == [APIToken(name: "phone", scopes: [.read], created: nine, revoked: at(minutes: 2))])
    }

    @Test func authenticateFindsTheRightTokenAndRefusesWrongAndRevokedOnes() throws {
        let t = try TemporaryStore()
        let phone = try t.store.addToken(name: "phone", scopes: [.start, .stop], now: nine)
        let hub = try t.store.addToken(name: "hub", scopes: [.read], now: nine)
        #expect(try t.store.authenticate(secret: phone, now: at(minutes: 1))
            == APIToken(name: "phone", scopes: [.start, .stop], created: nine, lastUsed: at(minutes: 1)))
        #expect(try t.store.authenticate(secret: hub, now: at(minutes: 1))?.name == "hub")
        // One character off, the prefix alone, nothing, and the stored hash
        // itself presented as the secret.
        var wrong = Array(phone.utf8)
        wrong[20] = wrong[20] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(try t.store.authenticate(secret: String(decoding: wrong, as: UTF8.self), now: at(minutes: 2)) == nil)
        #expect(try t.store.authenticate(secret: "trk_", now: at(minutes: 2)) == nil)
        #expect(try t.store.authenticate(secret: "", now: at(minutes: 2)) == nil)
        #expect(try t.store.authenticate(secret: SHA256.hex(phone.utf8), now: at(minutes: 2)) == nil)

        #expect(try t.store.revokeToken(name: "phone", now: at(minutes: 3)))
        #expect(try t.store.authenticate(secret: phone, now: at(minutes: 4)) == nil)
        #expect(try t.store.authenticate(secret: hub, now: at(minutes: 4))?.name == "hub")
        // The refused request was not recorded as a use.
        #expect(try t.store.tokens().first { $0.name == "phone" }?.lastUsed == at(minutes: 1))
    }

    @Test func lastUsedIsWrittenAtMostOnceAMinute() throws {
        let t = try TemporaryStore()
        let secret = try t.store.addToken(name: "phone", scopes: [.read], now: nine)
        #expect(try t.store.tokens().first?.lastUsed == nil)
        #expect(try t.store.authenticate(secret: secret, now: nine + 10)?.lastUsed == nine + 10)
        #expect(try t.store.authenticate(secret: secret, now: nine + 40)?.lastUsed == nine + 10)
        #expect(try t.store.authenticate(secret: secret, now: nine + 69)?.lastUsed == nine + 10)
        #expect(try t.store.tokens().first?.lastUsed == nine + 10)
        #expect(try t.store.authenticate(secret: secret, now: nine + 70)?.lastUsed == nine + 70)
        #expect(try t.store.tokens().first?.lastUsed == nine + 70)
    }

    /// Every value of every table, and every byte of every file the store
    /// has (database, WAL, shared memory), holds the hashes of a token and
    /// of a web page session but neither secret.
    @Test func theStoreHoldsNoSecret() throws {
        let t = try TemporaryStore()
        let secret = try t.store.addToken(name: "phone", scopes: TokenScope.allCases, now: nine)
        _ = try t.store.authenticate(secret: secret, now: at(minutes: 5))
        _ = try t.store.apply(start("Docs", at: at(minutes: 6)), now: at(minutes: 6))
        _ = try t.store.addToken(name: "laptop", scopes: [.read], now: nine)
        let session = try t.store.startSession(token: "laptop", now: at(minutes: 6), lifetime: 3600)
        _ = try t.store.session(secretHash: SHA256.hex(session.utf8), now: at(minutes: 8))
        #expect(try t.store.revokeToken(name: "phone", now: at(minutes: 7)))
        let hash = SHA256.hex(secret.utf8)
        let body = String(secret.dropFirst(4))
        let sessionHash = SHA256.hex(session.utf8)
        let sessionBody = String(session.dropFirst(4))

        var texts: [String] = []
        try t.store.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            #expect(tables.contains("api_token") && tables.contains("web_session"))
            for table in tables {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") {
                    for (_, value) in row {
                        switch value.storage {
                        case .string(let text): texts.append(text)
                        case .blob(let data): texts.append(String(decoding: data, as: UTF8.self))
                        default: break
                        }
                    }
                }
            }
        }
        #expect(texts.contains(hash) && texts.contains(sessionHash))
        #expect(!texts.contains { $0.contains(body) || $0.contains(sessionBody) })

        let files = try FileManager.default.contentsOfDirectory(atPath: t.directory.path)
        #expect(files.contains("t.sqlite3"))
        var sawHashes = (token: false, session: false)
        for file in files {
            let bytes = try Data(contentsOf: t.directory.appendingPathComponent(file))
            #expect(bytes.range(of: Data(body.utf8)) == nil, "\(file) holds the token")
            #expect(bytes.range(of: Data(sessionBody.utf8)) == nil, "\(file) holds the session's secret")
            if bytes.range(of: Data(hash.utf8)) != nil { sawHashes.token = true }
            if bytes.range(of: Data(sessionHash.utf8)) != nil { sawHashes.session = true }
        }
        #expect(sawHashes.token && sawHashes.session)
    }

    @Test func base64urlFollowsRFC4648WithoutPadding() {
        #expect(["", "f", "fo", "foo", "foob", "fooba", "foobar"].map { base64url(Array($0.utf8)) }
            == ["", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE", "Zm9vYmFy"])
        #expect(base64url([0xfb, 0xff]) == "-_8")
        #expect(base64url([UInt8](repeating: 0xff, count: 32)).count == 43)
    }

    @Test func anOlderStoreGainsTheTableEmpty() throws {
        let old = try OlderStore(upTo: "v13-rule-traces") { _ in }
        let store = try Store(path: old.path)
        #expect(try store.tokens().isEmpty)
        _ = try store.addToken(name: "phone", scopes: [.read], now: nine)
        #expect(try store.tokens().map(\.name) == ["phone"])
    }
}
