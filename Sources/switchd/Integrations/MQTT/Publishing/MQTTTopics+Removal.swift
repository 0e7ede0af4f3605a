import ScanContract

extension MQTTTopics {
    /// The topics a scanner's state is retained on: position, room, switch, availability, last
    /// seen and, placed, its receiver's report.
    func retainedState(of scanner: ScannerID) -> [String] {
        [position(scanner), room(scanner), scanSwitch(scanner), availability(scanner), lastSeen(scanner), receiver(scanner)]
    }

    /// The topics a tag's state is retained on: position, room, availability, last seen.
    func retainedState(ofTag tagID: Int64) -> [String] {
        [tagPosition(tagID), tagRoom(tagID), tagAvailability(tagID), tagLastSeen(tagID)]
    }

    /// What takes a gone scanner off the broker, QoS 1, retained, empty (which deletes a retained
    /// message): its Home Assistant discovery configurations first when discovery is on, so the
    /// entities go before their state topics empty, then its state topics.
    func removal(of scanner: ScannerID) -> [MQTTMessage] {
        (discovery?.remove(scanner) ?? []) + Self.emptied(retainedState(of: scanner))
    }

    /// What takes a deleted tag off the broker, as ``removal(of:)`` does a scanner.
    func removal(ofTag tagID: Int64) -> [MQTTMessage] {
        (discovery?.remove(tag: tagID) ?? []) + Self.emptied(retainedState(ofTag: tagID))
    }

    private var discovery: Discovery? { discoveryPrefix.map { Discovery(topics: self, discoveryPrefix: $0) } }

    private static func emptied(_ topics: [String]) -> [MQTTMessage] {
        topics.map { MQTTMessage(topic: $0, payload: [], qos: .atLeastOnce, retain: true) }
    }
}
