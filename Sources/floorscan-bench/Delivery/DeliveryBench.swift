import Foundation
import Harness
import ScanContract

/// A release switchd publishing to a local Mosquitto and delivering webhooks to receivers on
/// loopback: first positions one at a time (each waited for at an MQTT subscriber: the latency),
/// then a burst of several scanners' positions (the presence events per second through MQTT and
/// through every webhook). Each receiver must get the burst's events once and in order per
/// scanner; the run fails otherwise, since a fast wrong delivery is no figure.
struct DeliveryBench {
    let sequential: Int
    let scanners: Int
    let positionsPerScanner: Int
    let webhooks: Int

    struct Figures {
        var latency: Stats
        var burstPositions: Int
        var burstEvents: Int
        var postedSeconds: Double
        var mqttSeconds: Double
        var webhookSeconds: Double
        var webhooks: Int

        func print() {
            Swift.print(String(format: "MQTT position latency, POST to subscriber, %d sequential: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                               latency.count, latency.percentile(50), latency.percentile(99), latency.maximum))
            Swift.print(String(format: "burst: %d positions posted in %.2f s (%.0f/s), %d presence events",
                               burstPositions, postedSeconds, Double(burstPositions) / postedSeconds, burstEvents))
            Swift.print(String(format: "MQTT events: the last at the subscriber after %.2f s: %.0f events/s", mqttSeconds, Double(burstEvents) / mqttSeconds))
            Swift.print(String(format: "webhooks (%d receiver(s)): the last accepted after %.2f s: %.0f deliveries/s",
                               webhooks, webhookSeconds, Double(burstEvents * webhooks) / webhookSeconds))
        }
    }

    func run(in folder: TemporaryFolder) async throws -> Figures {
        let broker = try await MosquittoBroker()
        defer { Task { await broker.remove() } }
        let receivers = try (0..<webhooks).map { _ in try WebhookCounter() }
        defer { receivers.forEach { $0.stop() } }
        let switchd = try await SwitchdInstance.start(in: folder, arguments: [
            "--mqtt-broker", "mqtt://127.0.0.1:\(broker.port)", "--presence-dwell", "0", "--away-after", "3600",
            "--webhook-allow-private",
        ])
        defer { Task { await switchd.process.kill() } }
        let client = switchd.adminClient()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["floorscan/scanners/+/position", "floorscan/scanners/+/events"], folder: folder)
        defer { Task { await watcher.stop() } }
        let floor = try await client.createFloor("Ground")
        let rooms = [try await client.createRoom("Hall", floor: floor), try await client.createRoom("Office", floor: floor)]
        let ids = try (0..<scanners).map { try ScannerID("bench-\($0)") }
        for id in ids {
            _ = try await client.call("POST", "/v1/scanners", json: NewScanner(id: id), as: ScanContract.Scanner.self)
        }
        func position(_ scanner: ScannerID, _ index: Int, at time: Date = Date()) -> NewPosition {
            NewPosition(
                scannerID: scanner, time: time, building: floor.building, floor: floor.id, x: Double(index), y: 2,
                roomID: rooms[index % 2].id, nearestLocationID: nil, accuracyMetres: 1.5, method: "wifi-knn"
            )
        }

        // Latency: one position at a time, each waited for at the subscriber.
        let positionTopic = "floorscan/scanners/\(ids[0].rawValue)/position"
        var sent: [Date] = []
        for index in 0..<sequential {
            sent.append(Date())
            let stored = try await client.call("POST", "/v1/positions", json: position(ids[0], index, at: sent[index]), as: Position.self)
            _ = try await watcher.waitFor(positionTopic, payload: .containing(#""positionID":\#(stored.id),"#))
        }
        let received = try await watcher.waitFor(count: sequential, positionTopic)
        let latency = Stats(zip(sent, received).compactMap { start, message in message.receivedAt.map { $0.timeIntervalSince(start) * 1000 } })
        // The sequential part's events are all out before the webhooks exist.
        let eventsBefore = 2 * sequential
        _ = try await watcher.waitFor(count: eventsBefore, "floorscan/scanners/+/events", timeout: .seconds(300))
        for receiver in receivers {
            _ = try await client.call("POST", "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(receiver.port)/hook"), as: CreatedWebhook.self)
        }

        let started = Date()
        let burst = Array(ids.dropFirst())
        let perScanner = positionsPerScanner
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in burst {
                group.addTask {
                    for index in 0..<perScanner {
                        _ = try await client.call("POST", "/v1/positions", json: position(id, index), as: Position.self)
                    }
                }
            }
            try await group.waitForAll()
        }
        let posted = Date().timeIntervalSince(started)
        let burstEvents = burst.count * positionsPerScanner * 2
        for receiver in receivers {
            try await receiver.waitFor(burstEvents, timeout: .seconds(600))
        }
        let webhookSpan = Date().timeIntervalSince(started)
        let events = try await watcher.waitFor(count: eventsBefore + burstEvents, "floorscan/scanners/+/events", timeout: .seconds(600))
        let mqttSpan = (events.compactMap(\.receivedAt).max() ?? started).timeIntervalSince(started)
        for receiver in receivers where !receiver.inOrderPerScanner() {
            throw DeliveryBenchError.outOfOrder(port: receiver.port)
        }
        return Figures(
            latency: latency, burstPositions: burst.count * positionsPerScanner, burstEvents: burstEvents,
            postedSeconds: posted, mqttSeconds: mqttSpan, webhookSeconds: webhookSpan, webhooks: webhooks
        )
    }
}

enum DeliveryBenchError: Error, CustomStringConvertible {
    case outOfOrder(port: Int)

    var description: String {
        switch self {
        case .outOfOrder(let port): "the webhook receiver on port \(port) got a scanner's events out of order"
        }
    }
}
