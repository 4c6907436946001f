import Foundation

/// Where a request comes from, for the log of failed authentications and
/// their limit; never to authorise anything. It is the connection's peer,
/// unless the peer is one of the settings' `trusted_proxies`: then it is
/// the last address of the request's `X-Forwarded-For`, the one that
/// proxy wrote (nginx's `$remote_addr`, Caddy's own). Anyone else's
/// `X-Forwarded-For` is not read.
public struct ClientAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address as the log shows it: IPv4 dotted, IPv6 as inet_ntop
    /// writes it (an IPv4-mapped IPv6 address is shown as IPv4).
    public var text: String
    /// What failures are counted under: an IPv4 address whole, an IPv6
    /// address by its /64, which one client commonly holds whole.
    public var key: String

    public var description: String { text }

    /// A request whose server gave no peer (a test calling the API in
    /// the process).
    static let unknown = ClientAddress(text: "unknown", key: "unknown")

    /// `text` as an IPv4 or IPv6 address, or nil when it is neither.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 {
            self.init(v4: v4)
        } else if inet_pton(AF_INET6, trimmed, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: bytes[12..<16]) }
                self.init(v4: v4)
                return
            }
            var prefix = v6
            withUnsafeMutableBytes(of: &prefix) { raw in
                for index in 8..<16 { raw[index] = 0 }
            }
            guard let shown = Self.text(AF_INET6, v6), let net = Self.text(AF_INET6, prefix) else { return nil }
            self.init(text: shown, key: net + "/64")
        } else {
            return nil
        }
    }

    private init(v4: in_addr) {
        let shown = Self.text(AF_INET, v4) ?? "unknown"
        self.init(text: shown, key: shown)
    }

    init(text: String, key: String) {
        self.text = text
        self.key = key
    }

    private static func text(_ family: Int32, _ address: in_addr) -> String? {
        withUnsafeBytes(of: address) { text(family, $0) }
    }

    private static func text(_ family: Int32, _ address: in6_addr) -> String? {
        withUnsafeBytes(of: address) { text(family, $0) }
    }

    /// inet_ntop of the address's bytes.
    private static func text(_ family: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Where `request` comes from, given the proxies whose
    /// `X-Forwarded-For` is believed. A trusted proxy's request without a
    /// readable last address is the proxy's own.
    static func of(_ request: APIRequest, trusting proxies: Set<String>) -> ClientAddress {
        guard let peer = request.peer.flatMap(ClientAddress.init) else { return .unknown }
        guard proxies.contains(peer.text) else { return peer }
        return request.lastListElement("X-Forwarded-For").flatMap(ClientAddress.init) ?? peer
    }
}
