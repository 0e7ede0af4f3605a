import Clocks
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The webhook delivery figures beside MQTT's (docs/mqtt.md, "Measuring"): events per second
/// from switchd's outbox to receivers on loopback, for one webhook and for several at once. A
/// measurement, not a check: it runs only with FLOORSCAN_MQTT_BENCH=1 and prints what it saw.
@Suite("Webhook throughput", .serialized, .enabled(if: ProcessInfo.processInfo.environment["FLOORSCAN_MQTT_BENCH"] == "1"))
struct WebhookThroughputTests {
    static let events = 2000
    static let webhooks = [1, 4]

    @Test(arguments: webhooks) func deliveryFigures(webhooks: Int) async throws {
        let receivers = (0..<webhooks).map { _ in WebhookReceiver() }
        try await serving(receivers) { ports in
            let feeds = Feeds()
            let database = try AppDatabase.inMemory()
            try await makeIntegrationApp(database, feeds: feeds, clock: TestClock()).test(.live) { client in
                for port in ports {
                    _ = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(port)/hook"), as: CreatedWebhook.self)
                }
                // Stored in one transaction, as a burst of presence events would be; the trigger
                // queues a delivery per webhook.
                let last = try await database.writer.write { db in
                    for index in 0..<Self.events {
                        try db.execute(sql: "INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'away', ?)", arguments: [index])
                    }
                    return db.lastInsertedRowID
                }
                let started = Date()
                await feeds.events.publish(upTo: last)
                for receiver in receivers { await receiver.waitForAccepted(Self.events) }
                let span = Date().timeIntervalSince(started)
                let total = Self.events * webhooks
                print(String(format: "Webhooks: %d events to %d receiver(s) on loopback, %d signed POSTs in %.2f s: %.0f deliveries/s",
                             Self.events, webhooks, total, span, Double(total) / span))
                for receiver in receivers {
                    let ids = await receiver.accepted.map(\.id)
                    #expect(ids == (1...Int(last)).map { "evt_\($0)" }, "every event once, in order")
                }
            }
        }
    }

    /// Runs `body` with every receiver serving on loopback, given their ports.
    private func serving(_ receivers: ArraySlice<WebhookReceiver>, ports: [Int] = [], _ body: @Sendable ([Int]) async throws -> Void) async throws {
        guard let receiver = receivers.first else { return try await body(ports) }
        try await receiver.application().test(.live) { client in
            try await serving(receivers.dropFirst(), ports: ports + [try #require(client.port)], body)
        }
    }

    private func serving(_ receivers: [WebhookReceiver], _ body: @Sendable ([Int]) async throws -> Void) async throws {
        try await serving(receivers[...], body)
    }
}
