import Foundation

/// Where the broker listens: `mqtt://host[:port]` (1883 by default) or `mqtts://host[:port]`
/// (TLS, 8883 by default).
struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
    static let defaultPort = 1883
    static let defaultTLSPort = 8883

    var host: String
    var port: Int
    var usesTLS: Bool

    /// Reads `mqtt://host:port`, `mqtts://host:port`, or a bare `host[:port]` (plain MQTT).
    ///
    /// - Throws: ``MQTTSettingsError`` naming the text for another scheme, a missing host or a
    ///   port outside 1…65535.
    init(url text: String) throws {
        var rest = Substring(text)
        var usesTLS = false
        if let scheme = rest.range(of: "://") {
            switch rest[..<scheme.lowerBound].lowercased() {
            case "mqtt", "tcp": usesTLS = false
            case "mqtts", "ssl", "tls": usesTLS = true
            default: throw MQTTSettingsError("--mqtt-broker \"\(text)\": the scheme must be mqtt:// or mqtts://")
            }
            rest = rest[scheme.upperBound...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var host = String(rest)
        var port = usesTLS ? Self.defaultTLSPort : Self.defaultPort
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else {
                throw MQTTSettingsError("--mqtt-broker \"\(text)\": the port must be a number from 1 to 65535")
            }
            port = number
            host = String(rest[..<colon])
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/") else {
            throw MQTTSettingsError("--mqtt-broker \"\(text)\": give a host, as in mqtt://127.0.0.1:1883")
        }
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    var isIPAddress: Bool {
        host.contains(":") || host.split(separator: ".").count == 4 && host.split(separator: ".").allSatisfy { UInt8($0) != nil }
    }

    var description: String {
        "\(usesTLS ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// A setting of the MQTT publisher that cannot work; switchd refuses to start with it.
struct MQTTSettingsError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
