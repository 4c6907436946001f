import CCurl
import TrackeeCore

/// One HTTP request, as the service clients send it.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    /// Sent as given, in this order. Values never appear in a failure's text.
    public var headers: [(String, String)]
    public var body: [UInt8]?
    /// Seconds for the whole exchange, connecting included.
    public var timeout: Double
    /// On a new connection that is closed afterwards. Creates need it: on
    /// a reused keep-alive connection that dies before an answer, libcurl
    /// quietly sends the request again ("Connection died, retrying a fresh
    /// connect"), and the service may then store it twice.
    public var fresh: Bool

    public init(method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
                timeout: Double = 30, fresh: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.fresh = fresh
    }
}

/// What the server answered, whatever the status.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names in lower case; a header sent twice is joined with ", ".
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request got no HTTP answer.
public struct HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Refused, unreachable, or the name did not resolve: nothing was sent.
        case cannotConnect
        /// No whole answer within the request's timeout; it may have been applied.
        case timedOut
        /// The connection closed (or broke) before an answer; it may have been applied.
        case closedWithoutAnswer
        /// Anything else libcurl reports, such as a TLS failure or a bad URL.
        case other
    }

    public var kind: Kind
    /// A short sentence from libcurl's own words; never the request's headers.
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// A small synchronous HTTP client on libcurl's easy interface.
///
/// Requests that are not `fresh` share one easy handle, and so its
/// keep-alive connection; each `fresh` request gets a handle of its own,
/// told to connect anew and to close afterwards, so libcurl has no old
/// connection to die under it and nothing to resend. This layer never
/// retries: the caller decides, because only it knows what a request does.
///
/// This is the only type in TrackeePush that holds C pointers. It is not
/// Sendable: use one client from one thread at a time.
///
/// ```swift
/// let http = HTTPClient()
/// let me = try http.send(HTTPRequest(method: "GET", url: "https://api.clockify.me/api/v1/user",
///                                    headers: [("X-Api-Key", token)], timeout: 30))
/// ```
public final class HTTPClient {
    /// The handle behind every request that may reuse a connection.
    private var shared: UnsafeMutableRawPointer?

    /// Bodies larger than this are refused rather than kept in memory.
    static let bodyLimit = 64 << 20

    public init() {}

    deinit {
        if let shared { curl_easy_cleanup(shared) }
    }

    /// Sends `request` and waits for the whole answer, whatever its status.
    public func send(_ request: HTTPRequest) throws(HTTPFailure) -> HTTPResponse {
        guard curlReady else { throw HTTPFailure(.other, "libcurl could not be initialised") }
        if request.fresh {
            guard let handle = curl_easy_init() else { throw HTTPFailure(.other, "libcurl could not start a transfer") }
            defer { curl_easy_cleanup(handle) }
            return try perform(request, on: handle, fresh: true)
        }
        if shared == nil { shared = curl_easy_init() }
        guard let handle = shared else { throw HTTPFailure(.other, "libcurl could not start a transfer") }
        // Back to defaults, keeping the live connection: nothing of this
        // request (its method, its body, pointers into this call's memory)
        // stays in the handle for the next one.
        defer { curl_easy_reset(handle) }
        return try perform(request, on: handle, fresh: false)
    }

    private func perform(_ request: HTTPRequest, on handle: UnsafeMutableRawPointer,
                         fresh: Bool) throws(HTTPFailure) -> HTTPResponse {
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        var lines: [String] = []
        for (name, value) in request.headers {
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw HTTPFailure(.other, "the \(name) header holds a line break")
            }
            // `Name;` is libcurl's spelling of a header with an empty value.
            lines.append(value.isEmpty ? name + ";" : name + ": " + value)
        }
        // Leaves out `Expect: 100-continue`, which would wait for the server on larger bodies.
        lines.append("Expect:")
        for line in lines {
            guard let longer = curl_slist_append(list, line) else {
                throw HTTPFailure(.other, "out of memory for the request headers")
            }
            list = longer
        }

        let milliseconds = max(1, Int(request.timeout * 1000))
        var options: [CURLcode] = [
            setString(handle, CURLOPT_URL, request.url),
            setString(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            setString(handle, CURLOPT_USERAGENT, "trackee/0.1"),
            // Every encoding this libcurl can decode.
            setString(handle, CURLOPT_ACCEPT_ENCODING, ""),
            trackee_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            trackee_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            trackee_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
            trackee_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 10_000)),
            trackee_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list),
        ]
        if fresh {
            options.append(trackee_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1))
            options.append(trackee_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1))
        }
        if let body = request.body ?? (request.method == "POST" ? [] : nil) {
            // Copied by libcurl, so nothing has to outlive this call.
            options.append(trackee_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
            options.append(body.withUnsafeBytes { trackee_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
            if request.method != "POST" {
                options.append(setString(handle, CURLOPT_CUSTOMREQUEST, request.method))
            }
        } else if request.method == "GET" {
            options.append(trackee_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        } else {
            options.append(setString(handle, CURLOPT_CUSTOMREQUEST, request.method))
        }
        if let refused = options.first(where: { $0 != CURLE_OK }) {
            throw HTTPFailure(.other, "libcurl refused an option: " + String(cString: curl_easy_strerror(refused)))
        }

        let received = Received()
        let context = Unmanaged.passUnretained(received).toOpaque()
        _ = trackee_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = trackee_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let received = Unmanaged<Received>.fromOpaque(context!).takeUnretainedValue()
            let n = size * count
            guard let data else { return n }
            guard received.body.count + n <= HTTPClient.bodyLimit else { return 0 }
            received.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: n))
            return n
        }
        _ = trackee_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = trackee_curl_setopt_write(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let received = Unmanaged<Received>.fromOpaque(context!).takeUnretainedValue()
            let n = size * count
            if let data { received.header(line: UnsafeRawBufferPointer(start: data, count: n)) }
            return n
        }

        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = errorText.withUnsafeMutableBufferPointer { buffer in
            _ = trackee_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            return withExtendedLifetime(received) { curl_easy_perform(handle) }
        }
        // The buffer is gone after this call.
        _ = trackee_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
        guard code == CURLE_OK else {
            let said = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw HTTPFailure.from(code, said.isEmpty ? String(cString: curl_easy_strerror(code)) : said)
        }
        var status = 0
        _ = trackee_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: received.headers, body: received.body)
    }

    private func setString(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) -> CURLcode {
        // libcurl copies string options.
        value.withCString { trackee_curl_setopt_pointer(handle, option, $0) }
    }
}

@available(*, unavailable)
extension HTTPClient: Sendable {}

/// libcurl's global set-up, once per process before the first handle;
/// `swift_once` makes it safe when tests start clients on many threads.
private let curlReady: Bool = curl_global_init(3 /* CURL_GLOBAL_ALL */) == CURLE_OK

/// What the callbacks collect during one transfer.
private final class Received {
    var body: [UInt8] = []
    var headers: [String: String] = [:]

    /// One header line as libcurl hands it over, with its CR LF. A status
    /// line starts a new set (after a 100 Continue, only the last counts).
    func header(line raw: UnsafeRawBufferPointer) {
        let line = String(decoding: raw, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon]).trimmingWhitespace().lowercased()
        let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
        headers[name] = headers[name].map { $0 + ", " + value } ?? value
    }
}

extension HTTPFailure {
    /// The kind of a libcurl error code, with `detail` (libcurl's error
    /// buffer: host, port and what went wrong) as the sentence's end.
    static func from(_ code: CURLcode, _ detail: String) -> HTTPFailure {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            HTTPFailure(.cannotConnect, "could not connect (\(detail))")
        case CURLE_OPERATION_TIMEDOUT:
            HTTPFailure(.timedOut, "no answer in time (\(detail))")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            HTTPFailure(.closedWithoutAnswer, "the connection closed without an answer (\(detail))")
        default:
            HTTPFailure(.other, detail)
        }
    }
}
