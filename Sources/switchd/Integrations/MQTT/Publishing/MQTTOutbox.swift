import Foundation
import ScanContract
import SwitchdStore

/// The generic publish path: a message put here is stored in switchd's database first and
/// reaches the broker at least once (QoS 1) or at most once (QoS 0), in the order it was put,
/// whenever the broker is reachable. Putting never waits for the broker.
///
/// Presence events and anything else that must not be lost go through here; state that is
/// retained (positions, switches, availability) is published from the database directly and
/// republished whole on every connection, so it needs no outbox. The removal of a deleted
/// scanner does (``removal(of:)``): once the scanner is gone the database no longer says what
/// to clear. On every connection the outbox is sent before the state.
struct MQTTOutbox: Sendable {
    let database: AppDatabase
    let topics: MQTTTopics
    /// Told the outbox's depth after each put; its ``MQTTStatus/outboxAdded`` wakes the publisher,
    /// so every outbox over the publisher's status reaches it.
    let status: MQTTStatus

    /// Stores messages for the broker, whole topics as ``MQTTTopics`` makes them.
    ///
    /// - Throws: ``StoreError`` when the database cannot be written (nothing is stored then).
    func put(_ messages: [MQTTMessage]) async throws {
        let stored = try await database.enqueueMQTT(Self.entries(messages), at: .nowInMilliseconds())
        await announce(stored)
    }

    /// Stores `value` as JSON for `<prefix>/scanners/<id>/events`, QoS 1, not retained: the path
    /// presence events take.
    ///
    /// - Throws: ``StoreError`` when the database cannot be written.
    func putEvent(_ value: some Encodable, of scanner: ScannerID) async throws {
        try await put([.json(value, topic: topics.events(scanner), retain: false)])
    }

    /// Stores a presence event for its topics (``MQTTTopics/events(of:)``, QoS 1) and marks it
    /// relayed, in one transaction (``MQTTPresenceRelay``).
    ///
    /// - Throws: ``StoreError`` when the database cannot be written: then neither happened.
    func putPresence(_ event: PresenceEvent) async throws {
        let messages = try topics.events(of: event).map { try MQTTMessage.json(event, topic: $0, retain: false) }
        let stored = try await database.enqueueMQTT(Self.entries(messages), at: .nowInMilliseconds(), presenceCursor: event.id)
        await announce(stored)
    }

    /// What takes `scanner` off the broker (``MQTTTopics/removal(of:)``), for
    /// ``AppDatabase/deleteScanner(_:at:mqtt:)`` to store with the delete; pass what it stored
    /// to ``announce(_:)`` once committed.
    func removal(of scanner: ScannerID) -> MQTTScannerRemoval {
        MQTTScannerRemoval(messages: Self.entries(topics.removal(of: scanner)), removesDiscovery: topics.discoveryPrefix != nil)
    }

    private static func entries(_ messages: [MQTTMessage]) -> [MQTTOutboxEntry] {
        messages.map { MQTTOutboxEntry(topic: $0.topic, payload: $0.payload, qos: Int($0.qos.rawValue), retain: $0.retain) }
    }

    /// Wakes the publisher and reports the depth.
    func announce(_ stored: [MQTTOutboxEntry]) async {
        if let last = stored.last?.id { await status.outboxAdded.raise(to: last) }
        if let depth = try? await database.mqttOutboxDepth() { await status.outbox(depth: depth) }
    }
}
