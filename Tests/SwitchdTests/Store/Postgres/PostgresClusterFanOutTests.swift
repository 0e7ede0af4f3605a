import Foundation
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// ``ClusterFanOutService`` wired to what instance B's waiters wait on: a flip, readings,
/// positions, tag positions and presence events committed through instance A's store (another
/// connection pool on the same PostgreSQL database) raise B's ``SwitchHub`` watermark, B's
/// measurement feed, B's position feed, B's tag position feed (which a tag's stream on B
/// follows) and B's event feeds, and a scanner deleted through A is retired from B's hub. Each
/// wait returns only when the watermark is raised, so without the service this suite waits
/// until its time limit.
@Suite("Fan-out into an instance's hub and feed", postgresInstalled, .postgresServer, .timeLimit(.minutes(2)))
struct PostgresClusterFanOutTests {
    /// Two stores on one database, and the service fanning out into B's hub and feeds.
    static func twoInstancesFannedOutIntoB() async throws -> (AppDatabase, AppDatabase, SwitchHub, Feeds, Task<Void, any Error>) {
        let (instanceA, instanceB) = try await twoPostgresInstances(maxConnections: 2)
        let hub = SwitchHub()
        let feeds = Feeds()
        let service = Task {
            try await ClusterFanOutService(database: instanceB, hub: hub, feeds: feeds, logger: Logger(label: "test")).run()
        }
        return (instanceA, instanceB, hub, feeds, service)
    }

    static func stop(_ service: Task<Void, any Error>, _ instances: AppDatabase...) async throws {
        service.cancel()
        _ = await service.result
        for instance in instances { try await instance.close() }
    }

    @Test func commitsThroughAnotherInstanceRaiseThisInstancesWatermarks() async throws {
        let (instanceA, instanceB, hub, feeds, service) = try await Self.twoInstancesFannedOutIntoB()

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

        // Presence events stored through A wake B's event feeds (tag events are presence events).
        let world = try await PresenceStoreWorld.make(instanceA)
        _ = try await world.position(in: world.hall, at: 0)
        let events = try await PostgresPresenceStoreTests.derive(instanceA).events
        let last = try #require(events.last).id
        await feeds.events.waitForRows(after: last - 1)
        await feeds.tagEvents.waitForRows(after: last - 1)

        try await Self.stop(service, instanceA, instanceB)
    }

    /// A tag registered through A wakes B's long-polls asking for the watched list; positions
    /// located through A reach B's tag position feed and the tag's stream there.
    @Test func tagsAndTagPositionsStoredThroughAnotherInstanceRaiseThisInstancesWatermarks() async throws {
        let (instanceA, instanceB, hub, feeds, service) = try await Self.twoInstancesFannedOutIntoB()
        // Before any change, only the wake-up that follows listening raises the watched lists'
        // watermark; after it, only a notification can.
        await hub.watchedTags.wait(untilAbove: 0)
        let watchedSeen = await hub.watchedTags.value
        let floor = try await instanceA.createFloor(NewFloor(name: "Ground"))
        let tag = try await instanceA.createTag(NewTag(name: "bike", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_11_22))))
        await hub.watchedTags.wait(untilAbove: watchedSeen)
        func store(at second: TimeInterval) async throws -> TagPosition {
            try await instanceA.storeTagPosition(TagPosition(
                id: 0, tagID: tag.id, time: Readings.start.addingTimeInterval(second), floorID: floor.id, x: second, y: 1, roomID: nil,
                accuracyMetres: 1, method: "test", scannersHeard: 3
            ))
        }

        // The first is seen by the resync that follows listening or by its notification; either
        // way B is listening once it has been seen.
        let first = try await store(at: 1)
        await feeds.tagPositions.waitForRows(after: first.id - 1)

        // Stored while B listens: only the notification can announce it, and B's stream reads it.
        let second = try await store(at: 2)
        await feeds.tagPositions.waitForRows(after: first.id)
        let source = instanceB.tagPositionSource(of: tag.id, since: nil, until: nil, feed: feeds.tagPositions)
        var followed = source.follow(after: first.id).makeAsyncIterator()
        #expect(try await followed.next() == second)

        try await Self.stop(service, instanceA, instanceB)
    }

    /// B keeps a floor's outlines once read; an outline set through A is announced, and B's
    /// cache is emptied, so B places the next position by it.
    @Test func anOutlineSetThroughAnotherInstanceEmptiesThisInstancesOutlineCache() async throws {
        let (instanceA, instanceB) = try await twoPostgresInstances(maxConnections: 2)
        var fanOut = ClusterFanOutService(database: instanceB, hub: SwitchHub(), feeds: Feeds(), logger: Logger(label: "test"))
        let emptied = Watermark()
        fanOut.outlinesEmptied = emptied
        let service = Task { [fanOut] in try await fanOut.run() }
        await emptied.wait(untilAbove: 0)

        let (floor, hall, office) = try await PostgresRoomOutlineStoreTests.hallAndOffice(in: instanceA)
        _ = try await instanceA.createLocation(NewLocation(roomID: hall.id, x: 3, y: 4))
        #expect(try await instanceB.room(at: 3, 4, onFloor: floor.id) == hall.id)
        #expect(instanceB.outlineCache.outlines(onFloor: floor.id) != nil, "B keeps what it read")

        let seen = await emptied.value
        _ = try await instanceA.setRoomOutline(office.id, to: RoomOutline(outline: PostgresRoomOutlineStoreTests.office))
        await emptied.wait(untilAbove: seen)
        #expect(try await instanceB.room(at: 3, 4, onFloor: floor.id) == office.id)

        try await Self.stop(service, instanceA, instanceB)
    }

    /// Settings changed through A wake B's long-polls that hold a settings revision.
    @Test func settingsChangedThroughAnotherInstanceWakeThisInstancesLongPolls() async throws {
        let (instanceA, instanceB, hub, _, service) = try await Self.twoInstancesFannedOutIntoB()
        await hub.settings.wait(untilAbove: 0)
        let seen = await hub.settings.value
        _ = try await instanceA.updateScanner(.default, with: ScannerPatch(settings: ScannerSettings(bleWindowMs: 30)))
        await hub.settings.wait(untilAbove: seen)
        #expect(try await instanceB.requestedSettings(of: .default).settings == ScannerSettings(bleWindowMs: 30))
        try await Self.stop(service, instanceA, instanceB)
    }
}
