import Foundation
import Harness
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd

/// The delivery figures from a switchd process (`$FLOORSCAN_BIN_DIR/switchd`, so a release
/// build can be measured from debug tests) publishing to a local Mosquitto and posting to a
/// webhook receiver on loopback: the latency from a position's POST to its MQTT message, and
/// presence events per second through MQTT and through the webhook while positions of several
/// scanners stream in. A measurement, not a check: it runs only with FLOORSCAN_MQTT_BENCH=1.
@Suite("Delivery figures of a switchd process", .serialized, .enabled(if: ProcessInfo.processInfo.environment["FLOORSCAN_MQTT_BENCH"] == "1"))
struct DeliveryProcessBenchTests {
    static let sequentialPositions = 300
    static let scanners = 8
    /// Per scanner, alternating between two rooms: each gives `left` and `entered` (the first,
    /// `entered` floor and room), so two events.
    static let positionsPerScanner = 150

    @Test func deliveryFigures() async throws {
        let folder = try TemporaryFolder("delivery-bench")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let receiver = WebhookReceiver()
        try await receiver.application().test(.live) { receiverClient in
            let receiverPort = try #require(receiverClient.port)
            let switchd = try await SwitchdInstance.start(in: folder, arguments: [
                "--mqtt-broker", "mqtt://127.0.0.1:\(broker.port)", "--presence-dwell", "0", "--away-after", "3600",
            ])
            let client = switchd.adminClient()
            let watcher = try await MQTTWatcher(port: broker.port, topics: ["floorscan/scanners/+/position", "floorscan/scanners/+/events"], folder: folder)
            let floor = try await client.createFloor("Ground")
            let rooms = [try await client.createRoom("Hall", floor: floor), try await client.createRoom("Office", floor: floor)]
            let ids = try (0..<Self.scanners).map { try ScannerID("bench-\($0)") }
            for id in ids {
                _ = try await client.call("POST", "/v1/scanners", json: NewScanner(id: id), as: ScanContract.Scanner.self)
            }
            func position(_ scanner: ScannerID, _ index: Int, at time: Date = Date()) -> NewPosition {
                NewPosition(
                    scannerID: scanner, time: time, building: floor.building, floor: floor.id, x: Double(index), y: 2,
                    roomID: rooms[index % 2].id, nearestLocationID: nil, accuracyMetres: 1.5, method: "wifi-knn"
                )
            }

            // Latency: one position at a time, each waited for at the subscriber. Scanner 0's
            // events are counted below with the rest.
            let positionTopic = "floorscan/scanners/\(ids[0].rawValue)/position"
            var sent: [Date] = []
            for index in 0..<Self.sequentialPositions {
                sent.append(Date())
                let stored = try await client.call("POST", "/v1/positions", json: position(ids[0], index % 2 == 0 ? 0 : 1, at: sent[index]), as: Position.self)
                _ = try await watcher.waitFor(positionTopic, payload: .containing(#""positionID":\#(stored.id),"#))
            }
            let received = try await watcher.waitFor(count: Self.sequentialPositions, positionTopic)
            let latencies = zip(sent, received).compactMap { start, message in message.receivedAt.map { $0.timeIntervalSince(start) * 1000 } }.sorted()
            print(String(format: "switchd process: MQTT position latency, POST to subscriber, %d sequential: p50 %.2f ms, p99 %.2f ms",
                         latencies.count, MQTTThroughputTests.percentile(latencies, 0.5), MQTTThroughputTests.percentile(latencies, 0.99)))
            let eventsBefore = 2 * Self.sequentialPositions
            // Every event so far is stored (and published) before the webhook is made.
            _ = try await watcher.waitFor(count: eventsBefore, "floorscan/scanners/+/events", timeout: .seconds(300))

            // The webhook from now on: it gets only the events of the burst.
            _ = try await client.call("POST", "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(receiverPort)/hook"), as: CreatedWebhook.self)
            let started = Date()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in ids.dropFirst() {
                    group.addTask {
                        for index in 0..<Self.positionsPerScanner {
                            _ = try await client.call("POST", "/v1/positions", json: position(id, index), as: Position.self)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let posted = Date().timeIntervalSince(started)
            let burstEvents = (Self.scanners - 1) * Self.positionsPerScanner * 2
            await receiver.waitForAccepted(burstEvents)
            let webhookSpan = Date().timeIntervalSince(started)
            let events = try await watcher.waitFor(count: eventsBefore + burstEvents, "floorscan/scanners/+/events", timeout: .seconds(300))
            let mqttSpan = (events.compactMap(\.receivedAt).max() ?? started).timeIntervalSince(started)
            print(String(format: "switchd process: %d positions of %d scanners posted in %.2f s (%.0f/s), %d presence events",
                         (Self.scanners - 1) * Self.positionsPerScanner, Self.scanners - 1, posted,
                         Double((Self.scanners - 1) * Self.positionsPerScanner) / posted, burstEvents))
            print(String(format: "switchd process: MQTT events, the last at the subscriber after %.2f s: %.0f events/s",
                         mqttSpan, Double(burstEvents) / mqttSpan))
            print(String(format: "switchd process: webhook, the last accepted after %.2f s: %.0f events/s",
                         webhookSpan, Double(burstEvents) / webhookSpan))
            let perScanner = Dictionary(grouping: try await receiver.accepted.map { try $0.payload().data }, by: \.scannerID)
            #expect(perScanner.values.allSatisfy { $0.map(\.id) == $0.map(\.id).sorted() }, "in order per scanner")
            await watcher.stop()
            await switchd.process.kill()
        }
        await broker.remove()
    }
}
