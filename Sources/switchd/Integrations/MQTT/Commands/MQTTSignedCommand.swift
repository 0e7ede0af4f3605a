import Crypto
import Foundation

/// A switch command as it travels on `<prefix>/scanners/<id>/switch/set`: one line
/// `v1 <timestamp> <nonce> <mac>`, a line feed, then the command's JSON (docs/mqtt.md):
///
/// - `timestamp`: when it was signed, seconds since 1970 (decimal);
/// - `nonce`: 16 to 64 of `A–Z a–z 0–9 - _`, new for every command (`openssl rand -hex 16`);
/// - `mac`: HMAC-SHA256, keyed with the command secret, over ``signedText(topic:timestamp:nonce:body:)``,
///   64 hex digits.
///
/// MQTT 3.1.1 has no message properties, so what HTTP would put in headers goes in the first line;
/// the topic is signed too, so a command for one scanner cannot be replayed to another.
struct MQTTSignedCommand: Sendable, Equatable {
    static let version = "v1"
    static let nonceLengths = 16...64

    var timestamp: Int64
    var nonce: String
    var mac: [UInt8]
    /// The command's JSON, exactly as signed.
    var body: [UInt8]

    /// The bytes the MAC covers: `v1`, the topic, the timestamp, the nonce and the body, joined by
    /// line feeds.
    static func signedText(topic: String, timestamp: Int64, nonce: String, body: [UInt8]) -> [UInt8] {
        Array("\(version)\n\(topic)\n\(timestamp)\n\(nonce)\n".utf8) + body
    }

    /// Reads the first line and splits off the body; checks the form, not the MAC.
    ///
    /// - Throws: ``MQTTCommandRefusal/tokenInCommand`` for the JSON-with-a-token form switchd
    ///   took before, ``MQTTCommandRefusal/unsigned(_:)`` naming what is wrong otherwise.
    init(parsing payload: [UInt8]) throws(MQTTCommandRefusal) {
        guard let lineEnd = payload.firstIndex(of: UInt8(ascii: "\n")) else {
            if Self.carriesToken(payload) { throw .tokenInCommand }
            throw .unsigned("the command has no signature line (\(Self.version) <timestamp> <nonce> <mac>, then a line feed and the JSON)")
        }
        let fields = payload[..<lineEnd].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard fields.first == Self.version else {
            if Self.carriesToken(payload) { throw .tokenInCommand }
            throw .unsigned("the first line does not start with \"\(Self.version) \"")
        }
        guard fields.count == 4 else {
            throw .unsigned("the first line has \(fields.count) fields; \(Self.version) <timestamp> <nonce> <mac> are 4, one space apart")
        }
        guard (1...12).contains(fields[1].utf8.count), fields[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let timestamp = Int64(fields[1]) else {
            throw .unsigned("the timestamp is not whole seconds since 1970")
        }
        guard Self.nonceLengths.contains(fields[2].utf8.count), fields[2].utf8.allSatisfy(Self.isNonceByte) else {
            throw .unsigned("the nonce must be \(Self.nonceLengths.lowerBound) to \(Self.nonceLengths.upperBound) of A-Z a-z 0-9 - _")
        }
        guard let mac = Self.bytes(hex: fields[3], count: SHA256.byteCount) else {
            throw .unsigned("the MAC is not 64 hex digits (HMAC-SHA256)")
        }
        self.timestamp = timestamp
        nonce = fields[2]
        self.mac = mac
        body = Array(payload[payload.index(after: lineEnd)...])
    }

    /// Whether the MAC is the one `secret` gives for this command on `topic` (compared in
    /// constant time).
    func isAuthentic(on topic: String, secret: MQTTCommandSecret) -> Bool {
        let signed = Self.signedText(topic: topic, timestamp: timestamp, nonce: nonce, body: body)
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: signed, using: secret.key)
    }

    /// The payload that carries `body` to `topic`, signed with `secret` (what a client sends;
    /// tests use it).
    static func payload(body: [UInt8], topic: String, timestamp: Int64, nonce: String, secret: MQTTCommandSecret) -> [UInt8] {
        let mac = HMAC<SHA256>.authenticationCode(for: signedText(topic: topic, timestamp: timestamp, nonce: nonce, body: body), using: secret.key)
        let hex = mac.map { String(format: "%02x", $0) }.joined()
        return Array("\(version) \(timestamp) \(nonce) \(hex)\n".utf8) + body
    }

    private static func isNonceByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// The bytes of `hex` when it is exactly `count` bytes' worth of hex digits (either case).
    private static func bytes(hex: String, count: Int) -> [UInt8]? {
        let digits = Array(hex)
        guard hex.utf8.count == count * 2, digits.count == count * 2, digits.allSatisfy(\.isHexDigit) else { return nil }
        let bytes = stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
        return bytes.count == count ? bytes : nil
    }

    /// Whether `payload` is the old form: a JSON object with a `token` member.
    private static func carriesToken(_ payload: [UInt8]) -> Bool {
        struct OldCommand: Decodable {
            var token: String
        }
        return (try? JSONDecoder().decode(OldCommand.self, from: Data(payload))) != nil
    }
}
