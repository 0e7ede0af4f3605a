import ScanContract

/// The topics switchd publishes and listens to (docs/mqtt.md lists them with examples).
struct MQTTTopics: Sendable {
    var prefix: String
    var discoveryPrefix: String?

    /// `online` while switchd is connected; the broker publishes `offline` (switchd's last will)
    /// when the connection is lost, and switchd publishes it when it stops.
    var status: String { "\(prefix)/status" }
    /// Home Assistant's birth message: `online` when it (re)starts and wants discovery again.
    var homeAssistantStatus: String? { discoveryPrefix.map { "\($0)/status" } }
    /// Every scanner's command topic, for SUBSCRIBE.
    var switchCommands: String { "\(prefix)/scanners/+/switch/set" }

    func scanner(_ id: ScannerID) -> String { "\(prefix)/scanners/\(id.rawValue)" }
    func position(_ id: ScannerID) -> String { scanner(id) + "/position" }
    func room(_ id: ScannerID) -> String { scanner(id) + "/room" }
    func scanSwitch(_ id: ScannerID) -> String { scanner(id) + "/switch" }
    func availability(_ id: ScannerID) -> String { scanner(id) + "/availability" }
    func lastSeen(_ id: ScannerID) -> String { scanner(id) + "/last-seen" }
    func measurements(_ id: ScannerID) -> String { scanner(id) + "/measurements" }
    /// A placed scanner's life as a receiver: its placement, receive offset and how much it hears.
    func receiver(_ id: ScannerID) -> String { scanner(id) + "/receiver" }
    func switchCommand(_ id: ScannerID) -> String { scanSwitch(id) + "/set" }
    func switchCommandResult(_ id: ScannerID) -> String { scanSwitch(id) + "/result" }
    /// Where presence events (and any other event kind) of a scanner go, QoS 1, not retained.
    func events(_ id: ScannerID) -> String { scanner(id) + "/events" }
    func tag(_ tagID: Int64) -> String { "\(prefix)/tags/\(tagID)" }
    func tagPosition(_ tagID: Int64) -> String { tag(tagID) + "/position" }
    func tagRoom(_ tagID: Int64) -> String { tag(tagID) + "/room" }
    func tagAvailability(_ tagID: Int64) -> String { tag(tagID) + "/availability" }
    func tagLastSeen(_ tagID: Int64) -> String { tag(tagID) + "/last-seen" }
    /// Where a tag's presence events go, QoS 1, not retained.
    func tagEvents(_ tagID: Int64) -> String { tag(tagID) + "/events" }

    func beacon(_ beaconID: Int64) -> String { "\(prefix)/beacons/\(beaconID)" }
    /// A beacon's latest telemetry, retained (Home Assistant's battery sensor reads it).
    func beaconTelemetry(_ beaconID: Int64) -> String { beacon(beaconID) + "/telemetry" }
    /// A tag's latest telemetry, retained.
    func tagTelemetry(_ tagID: Int64) -> String { tag(tagID) + "/telemetry" }
    /// Where a beacon's events (`batteryLow`) go, QoS 1, not retained.
    func beaconEvents(_ beaconID: Int64) -> String { beacon(beaconID) + "/events" }

    /// Where `event` goes: its scanner's events, its tag's and its beacon's. A missing tag heard has both (it
    /// goes with the scanner that heard it, as it always has, and with its tag); a tag's presence
    /// event has only its tag, a scanner's only its scanner.
    func events(of event: PresenceEvent) -> [String] {
        [event.scannerID.map(events), event.tagID.map(tagEvents), event.beaconID.map(beaconEvents)].compactMap { $0 }
    }

    /// The scanner a command topic names; nil for any other topic.
    func scannerOfSwitchCommand(_ topic: String) -> ScannerID? {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        let prefixParts = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == prefixParts.count + 4, Array(parts.prefix(prefixParts.count)) == prefixParts else { return nil }
        let rest = parts.suffix(4).map(String.init)
        guard rest[0] == "scanners", rest[2] == "switch", rest[3] == "set" else { return nil }
        return try? ScannerID(rest[1])
    }
}

/// Availability payloads (Home Assistant's defaults, `payload_available`/`payload_not_available`).
enum MQTTAvailability: String, Sendable {
    case online, offline
}
