import Foundation
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// ``ClusterFanOutService`` wired to what instance B's waiters wait on: a flip and readings
/// committed through instance A's store (another connection pool on the same PostgreSQL
/// database) raise B's ``SwitchHub`` watermark, B's measurement feed and B's position feed, and
/// a scanner deleted through A is retired from B's hub.
/// Each wait returns only when the watermark is raised, so without the service this suite waits
/// until its time limit.
@Suite("Fan-out into an instance's hub and feed", postgresInstalled, .postgresServer, .timeLimit(.minutes(2)))
struct PostgresClusterFanOutTests {
    @Test func commitsThroughAnotherInstanceRaiseThisInstancesWatermarks() async throws {
        let (instanceA, instanceB) = try await twoPostgresInstances(maxConnections: 2)
        let hub = SwitchHub()
        let feeds = Feeds()
        let service = Task {
            try await ClusterFanOutService(database: instanceB, hub: hub, feeds: feeds, logger: Logger(label: "test")).run()
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

        // A position posted through A reaches B's position feed (its listener already listens:
        // the measurements above came through it).
        let floor = try await instanceA.createFloor(NewFloor(name: "Ground"))
        let position = try await instanceA.createPosition(NewPosition(
            scannerID: scanner, time: Date(), building: floor.building, floor: floor.id, x: 1, y: 2, roomID: nil, nearestLocationID: nil,
            accuracyMetres: 3, method: "knn"
        ))
        await feeds.positions.waitForRows(after: position.id - 1)
        #expect(try await instanceB.positions(matching: PositionFilter(), after: 0, limit: 10).items.map(\.id) == [position.id])

        // A scanner deleted through A is retired from B's hub: what B holds for it ends.
        let retired = try ScannerID("pi-retired")
        _ = try await instanceA.createScanner(NewScanner(id: retired), at: Date())
        let held = await hub.revisions(of: retired)
        _ = try await instanceA.deleteScanner(retired, at: Date(), mqtt: nil)
        await held.wait(untilAbove: 1)
        #expect(await SwitchHub.isRetired(held))

        service.cancel()
        _ = await service.result
        try await instanceA.close()
        try await instanceB.close()
    }
}
