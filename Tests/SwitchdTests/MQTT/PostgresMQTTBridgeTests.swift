import Foundation
import Logging
import Testing
@testable import switchd
@testable import SwitchdStore

/// The MQTT outbox's wake-up across instances on a real PostgreSQL server: a message put in the
/// outbox through one instance wakes the publisher of another, as the scanner deletion's
/// removal, stored through any instance, must reach the one publishing to the broker.
@Suite("MQTT bridge across instances", postgresInstalled, .postgresServer, .timeLimit(.minutes(3)))
struct PostgresMQTTBridgeTests {
    /// A message put in the outbox through one instance raises the outbox watermark the other's
    /// publisher waits on (``ClusterFanOutService``): first through the resync after listening,
    /// then, committed while it listens, through the notification alone.
    @Test func theOutboxPutThroughOneInstanceWakesTheOthersPublisher() async throws {
        let (instanceA, instanceB) = try await twoPostgresInstances(maxConnections: 2)
        let outboxAdded = Watermark()
        let service = Task {
            try await ClusterFanOutService(
                database: instanceB, hub: SwitchHub(), feeds: Feeds(), logger: Logger(label: "test"), mqttOutboxAdded: outboxAdded
            ).run()
        }
        let message = MQTTOutboxEntry(topic: "floorscan/scanners/pi/events", payload: Array("{}".utf8), qos: 1, retain: false)
        let first = try #require(try await instanceA.enqueueMQTT([message], at: Date()).last?.id)
        await outboxAdded.wait(untilAbove: first - 1)
        let second = try #require(try await instanceA.enqueueMQTT([message, message], at: Date()).last?.id)
        await outboxAdded.wait(untilAbove: first)
        #expect(await outboxAdded.value == second)
        service.cancel()
        _ = await service.result
        try await instanceA.close()
        try await instanceB.close()
    }
}
