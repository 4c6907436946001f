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
        render: (IntentResult) throws -> (status: Int, body: [UInt8])
    ) throws -> (result: IntentResult?, answer: HTTPAnswer) {
        guard let key = intent.key else { preconditionFailure("an HTTP answer is stored under the intent's key") }
        return try write { db in
            if let stored = try Self.httpAnswer(db, key: key) { return (nil, stored) }
            let result = try apply(db, intent, now: now, newProjects: newProjects)
            let rendered = try render(result)
            let answer = HTTPAnswer(fingerprint: fingerprint, status: rendered.status, body: rendered.body)
            try Self.insert(db, answer, key: key, now: now)
            return (result, answer)
        }
    }

    /// The answer stored under `key`, if any.
    public func httpAnswer(key: String) throws -> HTTPAnswer? {
        try read { db in try Self.httpAnswer(db, key: key) }
    }

    private static func httpAnswer(_ db: Database, key: String) throws -> HTTPAnswer? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT fingerprint, status, body FROM http_answer WHERE key = ?", arguments: [key])
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
            try Self.insert(db, answer, key: key, now: now)
            return answer
        }
    }

    /// Stores `answer` under `key`, purging answers older than
    /// ``httpAnswerLifetime`` on the way (one indexed delete).
    private static func insert(_ db: Database, _ answer: HTTPAnswer, key: String, now: Instant) throws {
        try db.execute(
            sql: "DELETE FROM http_answer WHERE created < ?",
            arguments: [now.seconds - httpAnswerLifetime])
        try db.execute(
            sql: "INSERT INTO http_answer (key, fingerprint, status, body, created) VALUES (?, ?, ?, ?, ?)",
            arguments: [key, answer.fingerprint, answer.status, Data(answer.body), now.seconds])
    }
}
