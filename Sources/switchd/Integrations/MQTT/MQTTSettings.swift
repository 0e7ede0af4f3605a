/// How switchd publishes to an MQTT broker (`--mqtt-*`); switchd publishes nothing without a broker.
struct MQTTSettings: Sendable {
    static let defaultTopicPrefix = "floorscan"
    static let defaultDiscoveryPrefix = "homeassistant"
    static let defaultClientID = "floorscan-switchd"
    static let defaultKeepAliveSeconds = 30
    static let defaultScannerTimeoutSeconds = 120.0

    var broker: MQTTBroker
    /// PEM file of the CA that signed the broker's certificate; nil trusts the system's CAs.
    var caFile: String?
    var username: String?
    var password: String?
    /// Every topic switchd publishes starts with this (`floorscan/scanners/pi-lab/position`).
    var topicPrefix = defaultTopicPrefix
    /// Where Home Assistant looks for discovery configuration; nil publishes none.
    var discoveryPrefix: String? = defaultDiscoveryPrefix
    var clientID = defaultClientID
    /// Whether switches may be flipped through `<prefix>/scanners/<id>/switch/set`.
    var acceptsCommands = false
    /// The key commands are signed with (`--mqtt-command-secret-file`); without it every command
    /// is refused.
    var commandSecret: MQTTCommandSecret?
    /// How old or far ahead a signed command may be, and how many nonces are remembered.
    var commandWindow = MQTTCommandWindow()
    /// Whether each stored reading is published too (QoS 0, not kept while the broker is away).
    var publishesMeasurements = false
    var keepAlive: Duration = .seconds(defaultKeepAliveSeconds)
    /// A scanner switchd has not heard from for this long is published `offline`.
    var scannerTimeout: Duration = .seconds(defaultScannerTimeoutSeconds)
    /// Reconnect waits start here and double up to ``maxReconnectDelay``.
    var minReconnectDelay: Duration = .milliseconds(500)
    var maxReconnectDelay: Duration = .seconds(60)
    var connectTimeout: Duration = .seconds(10)

    var topics: MQTTTopics { MQTTTopics(prefix: topicPrefix, discoveryPrefix: discoveryPrefix) }
}
