import Foundation
import Harness
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The delivery figures of docs/mqtt.md: positions and outbox events per second through a local
/// Mosquitto, and the time from a position's POST to its message at a subscriber. A measurement,
/// not a check: it runs only with FLOORSCAN_MQTT_BENCH=1 and prints what it saw.
@Suite("MQTT throughput", .serialized, .enabled(if: ProcessInfo.processInfo.environment["FLOORSCAN_MQTT_BENCH"] == "1"))
struct MQTTThroughputTests {
    static let sequentialPositions = 300
    static let concurrentPositions = 2000
    static let posters = 8
    static let events = 5000

    @Test func deliveryFigures() async throws {
        let folder = try TemporaryFolder("mqtt-bench")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let positionTopic = "floorscan/scanners/bench/position"
        let eventTopic = "floorscan/scanners/bench/events"
        let watcher = try await MQTTWatcher(port: broker.port, topics: [positionTopic, eventTopic], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            let place = try await switchd.scannerInRoom("bench")
            var sent: [Date] = []
            for index in 0..<Self.sequentialPositions {
                sent.append(Date())
                try await switchd.postPosition("bench", in: place, x: Double(index), time: sent[index])
                _ = try await watcher.waitFor(positionTopic, payload: .containing(#""positionID":\#(index + 1),"#))
            }
            let received = try await watcher.waitFor(count: Self.sequentialPositions, positionTopic)
            let latencies = zip(sent, received).compactMap { start, message in message.receivedAt.map { $0.timeIntervalSince(start) * 1000 } }.sorted()
            print(String(format: "MQTT position latency, POST to subscriber, %d sequential: p50 %.2f ms, p99 %.2f ms",
                         latencies.count, Self.percentile(latencies, 0.5), Self.percentile(latencies, 0.99)))

            let started = Date()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for poster in 0..<Self.posters {
                    group.addTask {
                        for index in stride(from: poster, to: Self.concurrentPositions, by: Self.posters) {
                            try await switchd.postPosition("bench", in: place, x: Double(index))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let posted = Date().timeIntervalSince(started)
            // A position computed before one already published is not published (by design), so
            // the burst ends with a last position posted after all of it, not after a fixed count.
            let sentinel = try await switchd.postPosition("bench", in: place, x: -1)
            _ = try await watcher.waitFor(positionTopic, payload: .containing(#""positionID":\#(sentinel.id),"#))
            let burst = watcher.messages.filter { $0.topic == positionTopic }.dropFirst(Self.sequentialPositions).dropLast().compactMap(\.receivedAt)
            let span = (burst.max() ?? started).timeIntervalSince(started)
            print(String(format: "MQTT positions: %d posted by %d clients in %.2f s (%.0f/s); %d published (not older than the last), the last at the subscriber after %.2f s: %.0f messages/s",
                         Self.concurrentPositions, Self.posters, posted, Double(Self.concurrentPositions) / posted, burst.count, span, Double(burst.count) / span))

            let events = try (1...Self.events).map { try MQTTMessage.json(["event": $0], topic: eventTopic, retain: false) }
            let put = Date()
            try await MQTTOutbox(database: switchd.database, topics: switchd.settings.topics, status: switchd.status).put(events)
            let delivered = try await watcher.waitFor(count: Self.events, eventTopic).compactMap(\.receivedAt)
            let eventSpan = (delivered.max() ?? put).timeIntervalSince(put)
            print(String(format: "MQTT outbox: %d QoS 1 events stored in one put, all at the subscriber after %.2f s: %.0f events/s",
                         Self.events, eventSpan, Double(Self.events) / eventSpan))
        }
        await watcher.stop()
        await broker.remove()
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }
}
