import ScanContract

extension MQTTTopics {
    /// The topics a scanner's state is retained on: position, room, switch, availability, last seen.
    func retainedState(of scanner: ScannerID) -> [String] {
        [position(scanner), room(scanner), scanSwitch(scanner), availability(scanner), lastSeen(scanner)]
    }

    /// What takes a gone scanner off the broker, QoS 1, retained, empty (which deletes a retained
    /// message): its Home Assistant discovery configurations first when discovery is on, so the
    /// entities go before their state topics empty, then its state topics.
    func removal(of scanner: ScannerID) -> [MQTTMessage] {
        let discovery = discoveryPrefix.map { Discovery(topics: self, discoveryPrefix: $0) }
        let cleared = retainedState(of: scanner).map { MQTTMessage(topic: $0, payload: [], qos: .atLeastOnce, retain: true) }
        return (discovery?.remove(scanner) ?? []) + cleared
    }
}
