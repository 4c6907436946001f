import Foundation
import NIOCore
import NIOHTTP1
import TrackeeAPI

/// One connection: collects each request within the limits, hands it to
/// ``API/answer(_:)`` off the event loop, and writes the answer; for the
/// event stream, keeps the response open and writes the hub's frames.
///
/// The limits are enforced here, before a route runs: a body larger than
/// ``HTTPSettings/maxBody`` is refused from its Content-Length (or once a
/// chunked body passes it) without reading it; a request must arrive
/// within ``HTTPSettings/requestTimeout`` seconds of the connection or of
/// the previous answer.
final class APIHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let api: API
    /// The web page, which answers every path outside `/v1/`; nil: the API does.
    private let page: (any WebPageServing)?
    private let hub: EventHub
    /// Set when the connection came above the cap: every request gets 503.
    private let busyLimit: Int?
    private let opening: String

    private let progress: RequestBytes
    private var head: HTTPRequestHead?
    /// When `head` arrived, on the access log's clock.
    private var headArrived: UInt64?
    private var body: ByteBuffer?
    /// After a refusal that closes the connection: nothing more is read.
    private var refusing = false
    private var timer: Scheduled<Void>?
    private var stream: Int?

    init(api: API, page: (any WebPageServing)?, hub: EventHub, busyLimit: Int?, opening: String, progress: RequestBytes) {
        self.progress = progress
        self.api = api
        self.page = page
        self.hub = hub
        self.busyLimit = busyLimit
        self.opening = opening
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        if let stream { hub.close(stream) }
        stream = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            headArrived = api.ticks()
            body = nil
            if let busyLimit {
                refuse(ServerAnswer.busy(limit: busyLimit), context)
            } else if let length = requestHead.headers.first(name: "content-length").flatMap({ Int($0) }),
                      length > HTTPSettings.maxBody
            {
                refuse(ServerAnswer.tooLarge(limit: HTTPSettings.maxBody), context)
            }
        case .body(var chunk):
            if body == nil {
                body = chunk
            } else {
                body!.writeBuffer(&chunk)
            }
            if body!.readableBytes > HTTPSettings.maxBody {
                refuse(ServerAnswer.tooLarge(limit: HTTPSettings.maxBody), context)
            }
        case .end:
            timer?.cancel()
            timer = nil
            progress.started = false
            guard let requestHead = head else { return }
            let request = Self.request(
                requestHead, body: body, peer: context.channel.remoteAddress?.ipAddress, arrived: api.ticks())
            head = nil
            body = nil
            let keepAlive = requestHead.isKeepAlive
            let version = requestHead.version
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            let (api, page) = (self.api, self.page)
            Task {
                let answer: APIResponse
                if let page, !request.path.hasPrefix("/v1/") {
                    answer = await page.answer(request)
                } else {
                    answer = await api.answer(request)
                }
                loop.execute {
                    let (handler, context) = bound.value
                    handler.respond(answer, version: version, keepAlive: keepAlive, context)
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset connection: the client is gone; nothing to answer.
        context.close(promise: nil)
    }

    /// The parsed request: path and query split, the query's values
    /// decoded, with the connection's peer address and when it arrived.
    static func request(_ head: HTTPRequestHead, body: ByteBuffer?, peer: String?, arrived: UInt64?) -> APIRequest {
        let uri = head.uri
        let question = uri.firstIndex(of: "?")
        let path = String(uri[..<(question ?? uri.endIndex)])
        // A query that is not UTF-8 is taken as it came, its escapes kept.
        func decoded(_ text: Substring) -> String { URLEncoded.decoded(text) ?? URLEncoded.plus(text) }
        let query = question.map { question in
            URLEncoded.pairs(uri[uri.index(after: question)...]).map { (decoded($0.name), decoded($0.value)) }
        } ?? []
        return APIRequest(
            method: head.method.rawValue, path: path, query: query,
            headers: head.headers.map { ($0.name, $0.value) },
            body: body.map { Array($0.readableBytesView) } ?? [], peer: peer, arrived: arrived)
    }

    private func respond(_ answer: APIResponse, version: HTTPVersion, keepAlive: Bool, _ context: ChannelHandlerContext) {
        guard context.channel.isActive, !refusing else { return }
        var headers = HTTPHeaders(answer.headers)
        if let cursor = answer.eventCursor {
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .ok, headers: headers))), promise: nil)
            openStream(at: cursor, changes: answer.streamsChanges, context)
            return
        }
        headers.replaceOrAdd(name: "Content-Length", value: "\(answer.body.count)")
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        if !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            arm(context)
        } else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    /// Keeps the response open: the opening comment now, then what the
    /// hub publishes, until the client leaves or the daemon stops.
    private func openStream(at cursor: EventStream.Cursor, changes: Bool, _ context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        let id = hub.open(EventHub.Stream(
            send: { text in
                loop.execute {
                    let (handler, context) = bound.value
                    handler.write(text, context)
                }
            },
            finish: { last in
                loop.execute {
                    let (handler, context) = bound.value
                    handler.stream = nil
                    handler.write(last, context)
                    handler.end(context)
                }
            }, changes: changes), at: cursor)
        guard let id else {
            write(EventStream.end, context)
            end(context)
            return
        }
        stream = id
        write(opening, context)
    }

    private func write(_ text: String, _ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        // A reader that does not keep up (its frames pile up past the
        // channel's high-water mark) is cut off rather than buffered for.
        guard context.channel.isWritable else {
            context.close(promise: nil)
            return
        }
        context.writeAndFlush(
            wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
    }

    private func end(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// Answers `answer` and closes the connection without reading more of
    /// it: reading stops, the answer goes out, the write side is shut so
    /// the client sees the end, and the socket closes a second later (a
    /// close with unread bytes would reset the connection before the
    /// client read the answer).
    private func refuse(_ answer: APIResponse, _ context: ChannelHandlerContext) {
        refusing = true
        timer?.cancel()
        timer = nil
        if let head {
            let request = Self.request(head, body: nil, peer: nil, arrived: headArrived)
            if let page, !request.path.hasPrefix("/v1/") {
                page.refused(method: request.method, path: request.path, status: answer.status, arrived: request.arrived)
            } else {
                api.refused(method: request.method, path: request.path, status: answer.status, arrived: request.arrived)
            }
        }
        head = nil
        body = nil
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        var headers = HTTPHeaders(answer.headers)
        headers.replaceOrAdd(name: "Content-Length", value: "\(answer.body.count)")
        headers.replaceOrAdd(name: "Connection", value: "close")
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        // Closed a second later whatever became of the answer.
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) {
            context.close(promise: nil)
        }
    }

    /// Gives the next request ``HTTPSettings/requestTimeout`` seconds to
    /// arrive whole.
    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: .seconds(Int64(HTTPSettings.requestTimeout))) {
            let (handler, context) = bound.value
            handler.timer = nil
            let answer = ServerAnswer.timeout(seconds: HTTPSettings.requestTimeout)
            if handler.head != nil {
                handler.refuse(answer, context)
            } else if handler.progress.started {
                // Half a head: the HTTP handlers have no request to answer,
                // so the 408 goes out beneath them.
                handler.refusing = true
                handler.progress.answerAndClose(answer)
            } else {
                context.close(promise: nil)
            }
        }
    }
}

/// Notes whether bytes of a next request have arrived, which the HTTP
/// decoder does not tell until the whole head is there: a client that sent
/// half a head and stopped gets a 408 before the close, one that sent
/// nothing only the close. In front of the HTTP decoder,
/// passing everything through; the 408 is written from here, beneath the
/// HTTP handlers, which have no request to answer.
final class RequestBytes: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Set by the first bytes of a request, cleared when it has arrived whole.
    var started = false
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        started = true
        context.fireChannelRead(data)
    }

    /// Writes `answer` as HTTP/1.1 bytes and closes the connection.
    func answerAndClose(_ answer: APIResponse) {
        guard let context else { return }
        var text = "HTTP/1.1 \(answer.status) \(HTTPResponseStatus(statusCode: answer.status).reasonPhrase)\r\n"
        for (name, value) in answer.headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
        var buffer = context.channel.allocator.buffer(string: text)
        buffer.writeBytes(answer.body)
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
