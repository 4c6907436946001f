import Foundation
import GRDB
import TrackeeCore

/// An HTTP answer stored under an idempotency key: what the first request
/// with that key was answered, and which request that was.
public struct HTTPAnswer: Sendable, Equatable {
    /// The request the answer belongs to (method, path and body), as the
    /// caller computed it.
    public var fingerprint: String
    public var status: Int
    public var body: [UInt8]

    public init(fingerprint: String, status: Int, body: [UInt8]) {
        self.fingerprint = fingerprint
        self.status = status
        self.body = body
    }
}

/// One HTTP request's timer intent, for ``Store/apply(_:)``.
public struct HTTPIntent: Sendable {
    public var intent: Intent
    public var now: Instant
    public var newProjects: NewProjects
    /// The request (method, path and body), as the caller computed it;
    /// stored with the answer when the intent has a key.
    public var fingerprint: String
    /// Turns the intent's result into the answer, inside the transaction.
    public var render: @Sendable (IntentResult) throws -> (status: Int, body: [UInt8])

    public init(
        _ intent: Intent, now: Instant, newProjects: NewProjects, fingerprint: String,
        render: @escaping @Sendable (IntentResult) throws -> (status: Int, body: [UInt8])
    ) {
        self.intent = intent
        self.now = now
        self.newProjects = newProjects
        self.fingerprint = fingerprint
        self.render = render
    }
}

extension Store {
    /// How long an HTTP answer is kept: 30 days, after which its key
    /// answers as a key the CLI used (the firing ledger still replays it).
    public static let httpAnswerLifetime: Int64 = 30 * 86_400

    /// Applies a keyed intent for an HTTP request and stores the answer in
    /// the same transaction, so an answer exists exactly when its intent
    /// was applied.
    ///
    /// When an answer is already stored under `intent.key`, nothing is
    /// applied and that answer is returned with a nil result, whatever
    /// its fingerprint: the caller compares fingerprints. Otherwise the
    /// intent is applied as ``apply(_:now:newProjects:)`` does, `render`
    /// turns its result into the answer, and the answer is stored.
    /// Answers older than ``httpAnswerLifetime`` are purged on the way,
    /// which costs one indexed delete.
    ///
    /// ```swift
    /// let (result, answer) = try store.apply(intent, now: now, fingerprint: "POST /v1/start …") { result in
    ///     (200, render(result))
    /// }
    /// ```
    public func apply(
        _ intent: Intent, now: Instant, newProjects: NewProjects = .create, fingerprint: String,
        render: @escaping @Sendable (IntentResult) throws -> (status: Int, body: [UInt8])
    ) throws -> (result: IntentResult?, answer: HTTPAnswer) {
        guard intent.key != nil else { preconditionFailure("an HTTP answer is stored under the intent's key") }
        let request = HTTPIntent(intent, now: now, newProjects: newProjects, fingerprint: fingerprint, render: render)
        let applied = try apply([request])[0].get()
        return (applied.result, applied.answer)
    }

    /// Applies the intents of several HTTP requests, in order, in one
    /// transaction: one commit (and one write of each page they share)
    /// for all of them, which is what lets a server keep up with many
    /// requests at once. Each is applied as it would be alone, in a
    /// savepoint of its own, so one that is refused leaves no trace and
    /// the others stand; its place in the answer holds its error.
    ///
    /// A request with a key is ``apply(_:now:newProjects:fingerprint:render:)``:
    /// an answer already stored under the key is returned with a nil
    /// result, and otherwise the new answer is stored. One without a key
    /// is ``apply(_:now:newProjects:)`` with its answer rendered, not
    /// stored. A failure of the transaction itself (a full disk, a lock
    /// held past the busy timeout) is thrown, and nothing is applied.
    public func apply(_ requests: [HTTPIntent]) throws -> [Result<(result: IntentResult?, answer: HTTPAnswer), StoreError>] {
        try write { db in
            var purged = false
            return requests.map { request in
                var applied: (result: IntentResult?, answer: HTTPAnswer)?
                do {
                    try db.inSavepoint {
                        applied = try apply(db, request, purging: !purged)
                        return .commit
                    }
                } catch {
                    return .failure(Self.translate(error, path: path))
                }
                if request.intent.key != nil && applied!.result != nil { purged = true }
                return .success(applied!)
            }
        }
    }

    private func apply(
        _ db: Database, _ request: HTTPIntent, purging: Bool
    ) throws -> (result: IntentResult?, answer: HTTPAnswer) {
        let key = request.intent.key
        if let key, let stored = try Self.httpAnswer(db, key: key) { return (nil, stored) }
        let result = try apply(db, request.intent, now: request.now, newProjects: request.newProjects)
        let rendered = try request.render(result)
        let answer = HTTPAnswer(fingerprint: request.fingerprint, status: rendered.status, body: rendered.body)
        if let key { try Self.insert(db, answer, key: key, now: request.now, purging: purging) }
        return (result, answer)
    }

    /// The answer stored under `key`, if any.
    public func httpAnswer(key: String) throws -> HTTPAnswer? {
        try read { db in try Self.httpAnswer(db, key: key) }
    }

    private static func httpAnswer(_ db: Database, key: String) throws -> HTTPAnswer? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT fingerprint, status, body FROM http_answer WHERE key = ?"), arguments: [key])
        else { return nil }
        let body: Data = row["body"] ?? Data()
        return HTTPAnswer(fingerprint: row["fingerprint"], status: row["status"] ?? 0, body: [UInt8](body))
    }
}

extension Store {
    /// Stores `answer` under `key` unless one is stored already, and
    /// returns the one stored: for requests the daemon carries out (event
    /// lines), whose effect is not one intent this store applies, so the
    /// answer is stored after the daemon took the line. Purges answers
    /// older than ``httpAnswerLifetime`` on the way.
    public func keepHTTPAnswer(_ answer: HTTPAnswer, key: String, now: Instant) throws -> HTTPAnswer {
        try write { db in
            if let stored = try Self.httpAnswer(db, key: key) { return stored }
            try Self.insert(db, answer, key: key, now: now, purging: true)
            return answer
        }
    }

    /// Stores `answer` under `key`, purging answers older than
    /// ``httpAnswerLifetime`` on the way (one indexed delete, once a
    /// transaction).
    private static func insert(_ db: Database, _ answer: HTTPAnswer, key: String, now: Instant, purging: Bool) throws {
        if purging {
            try db.cachedStatement(sql: "DELETE FROM http_answer WHERE created < ?")
                .execute(arguments: [now.seconds - httpAnswerLifetime])
        }
        try db.cachedStatement(sql: "INSERT INTO http_answer (key, fingerprint, status, body, created) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [key, answer.fingerprint, answer.status, Data(answer.body), now.seconds])
    }
}
