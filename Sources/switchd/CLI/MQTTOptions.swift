import ArgumentParser
import DaemonSupport

/// `switchd serve`'s `--mqtt-*` options; docs/mqtt.md explains each.
struct MQTTOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "MQTT broker to publish to: mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (TLS, 8883).",
        discussion: "Without it switchd publishes nothing over MQTT."
    ))
    var mqttBroker: String?
    @Option(help: "PEM file of the CA that signed an mqtts:// broker's certificate (default: the system's CAs).")
    var mqttCaFile: String?
    @Option(help: "User name to log in to the broker with.")
    var mqttUsername: String?
    @Option(help: "A file holding the broker password (first line; needs --mqtt-username).")
    var mqttPasswordFile: String?
    @Option(help: "Every topic switchd publishes starts with this.")
    var mqttTopicPrefix = MQTTSettings.defaultTopicPrefix
    @Option(help: "Home Assistant's discovery prefix.")
    var mqttDiscoveryPrefix = MQTTSettings.defaultDiscoveryPrefix
    @Flag(inversion: .prefixedNo, help: "Publish Home Assistant discovery configuration for every scanner.")
    var mqttDiscovery = true
    @Option(help: "MQTT client identifier; unique per broker.")
    var mqttClientId = MQTTSettings.defaultClientID
    @Flag(help: "Accept switch commands on <prefix>/scanners/<id>/switch/set, signed with the command secret.")
    var mqttCommands = false
    @Option(help: ArgumentHelp(
        "A file holding the secret MQTT commands are signed with (first line, 32 characters or more; mode 0600 or 0640).",
        discussion: "Needed by --mqtt-commands: without it every command is refused. It is no HTTP token and opens no HTTP route."
    ))
    var mqttCommandSecretFile: String?
    @Flag(help: "Also publish every stored reading (QoS 0; many messages).")
    var mqttRawMeasurements = false
    @Option(help: "Seconds without a batch, a position or a window of sightings before a scanner is published offline, and without a located window before a tag is.")
    var mqttScannerTimeout = MQTTSettings.defaultScannerTimeoutSeconds
    @Option(help: "Seconds between keep-alive pings to the broker (1 to 65535).")
    var mqttKeepAlive = MQTTSettings.defaultKeepAliveSeconds

    /// The settings these options give; nil without `--mqtt-broker`.
    ///
    /// - Parameter readingSecrets: read `--mqtt-password-file` and `--mqtt-command-secret-file` (at
    ///   start, not while validating).
    /// - Throws: ``MQTTSettingsError`` for a bad broker URL or option combination, or a password
    ///   or command secret file that cannot be read, is open to other users or holds no secret.
    func settings(readingSecrets: Bool) throws -> MQTTSettings? {
        guard let mqttBroker else {
            let given = [mqttCaFile, mqttUsername, mqttPasswordFile, mqttCommandSecretFile].contains { $0 != nil } || mqttCommands || mqttRawMeasurements
            if given { throw MQTTSettingsError("--mqtt-* options need --mqtt-broker") }
            return nil
        }
        var settings = MQTTSettings(broker: try MQTTBroker(url: mqttBroker))
        if mqttCaFile != nil, !settings.broker.usesTLS {
            throw MQTTSettingsError("--mqtt-ca-file needs an mqtts:// broker, got \(mqttBroker)")
        }
        if mqttPasswordFile != nil, mqttUsername == nil {
            throw MQTTSettingsError("--mqtt-password-file needs --mqtt-username")
        }
        for (name, topic) in [("--mqtt-topic-prefix", mqttTopicPrefix), ("--mqtt-discovery-prefix", mqttDiscoveryPrefix)] {
            guard !topic.isEmpty, !topic.contains(where: { "+#\0".contains($0) }), !topic.hasPrefix("/"), !topic.hasSuffix("/") else {
                throw MQTTSettingsError("\(name) \"\(topic)\": a topic prefix must not be empty, hold + # or NUL, or start or end with /")
            }
        }
        guard !mqttClientId.isEmpty, mqttClientId.utf8.count <= 65535 else {
            throw MQTTSettingsError("--mqtt-client-id must not be empty")
        }
        guard mqttScannerTimeout > 0, mqttScannerTimeout.isFinite else {
            throw MQTTSettingsError("--mqtt-scanner-timeout must be a positive number of seconds, got \(mqttScannerTimeout)")
        }
        guard (1...65535).contains(mqttKeepAlive) else {
            throw MQTTSettingsError("--mqtt-keep-alive must be 1 to 65535 seconds, got \(mqttKeepAlive)")
        }
        settings.caFile = mqttCaFile
        settings.username = mqttUsername
        if readingSecrets, let mqttPasswordFile {
            do {
                settings.password = try TokenFileText.read(mqttPasswordFile)
            } catch {
                throw MQTTSettingsError("--mqtt-password-file \(mqttPasswordFile): \(error)")
            }
        }
        settings.topicPrefix = mqttTopicPrefix
        settings.discoveryPrefix = mqttDiscovery ? mqttDiscoveryPrefix : nil
        settings.clientID = mqttClientId
        settings.acceptsCommands = mqttCommands
        if readingSecrets, let mqttCommandSecretFile {
            settings.commandSecret = try MQTTCommandSecret.read(mqttCommandSecretFile)
        }
        settings.publishesMeasurements = mqttRawMeasurements
        settings.scannerTimeout = Duration(secondsRoundedUp: mqttScannerTimeout)
        settings.keepAlive = .seconds(mqttKeepAlive)
        return settings
    }
}
