import Foundation
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// ``ClusterFanOutService`` wired to what instance B's waiters wait on: a flip and readings
/// committed through instance A's store (another connection pool on the same PostgreSQL
/// database) raise B's ``SwitchHub`` watermark and B's measurement feed, and presence events
/// derived through A raise B's event feeds. Each wait returns only
/// when the watermark is raised, so without the service this suite waits until its time limit.
@Suite("Fan-out into an instance's hub and feed", postgresInstalled, .postgresServer, .timeLimit(.minutes(2)))
struct PostgresClusterFanOutTests {
    @Test func commitsThroughAnotherInstanceRaiseThisInstancesWatermarks() async throws {
        let (instanceA, instanceB) = try await twoPostgresInstances(maxConnections: 2)
        let hub = SwitchHub()
        let feeds = Feeds()
        let service = Task {
            try await ClusterFanOutService(
                database: instanceB, hub: hub, measurements: feeds.measurements, events: [feeds.events, feeds.tagEvents], logger: Logger(label: "test")
            ).run()
        }

        // The first flip is seen either by the resync that follows listening, or by its
        // notification; either way B is listening once it has been seen.
        let scanner = ScannerID.default
        let on = try await instanceA.updateSwitch(of: scanner, with: SwitchPatch(scanning: true, storeData: true), at: Date()).scanSwitch
        await hub.revisions(of: scanner).wait(untilAbove: Int64(on.revision) - 1)
        let first = try await instanceA.ingest(Readings.batch([Readings.wifi()], revision: on.revision), at: Date())
        await feeds.measurements.waitForRows(after: 0)

        // Committed while B listens: only the notifications can announce these.
        let seenChanges = await hub.anyChange.value
        let off = try await instanceA.updateSwitch(of: scanner, with: SwitchPatch(scanning: false), at: Date()).scanSwitch
        await hub.revisions(of: scanner).wait(untilAbove: Int64(on.revision))
        #expect(await hub.revisions(of: scanner).value == Int64(off.revision))
        #expect(await hub.anyChange.value > seenChanges)
        let again = try await instanceA.updateSwitch(of: scanner, with: SwitchPatch(scanning: true, storeData: true), at: Date()).scanSwitch
        let second = try await instanceA.ingest(Readings.batch([Readings.ble(), Readings.wifi(at: 1)], revision: again.revision), at: Date())
        await feeds.measurements.waitForRows(after: try #require(first.lastSequence))
        #expect(try #require(second.lastSequence) > #require(first.lastSequence))

        // Presence events stored through A wake B's event feeds (tag events are presence events).
        let world = try await PresenceStoreWorld.make(instanceA)
        _ = try await world.position(in: world.hall, at: 0)
        let events = try await PostgresPresenceStoreTests.derive(instanceA).events
        let last = try #require(events.last).id
        await feeds.events.waitForRows(after: last - 1)
        await feeds.tagEvents.waitForRows(after: last - 1)

        service.cancel()
        _ = await service.result
        try await instanceA.close()
        try await instanceB.close()
    }
}
