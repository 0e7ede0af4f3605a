import Foundation
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Closing a tag's window once per cluster: two window closers, each with its own tracker, stand
/// for two switchd instances behind a load balancer sharing one database, and each receives half
/// of every window's posts.
extension PostgresTagStoreTests {
    /// Window 1: A gets scanners 0 and 1, B scanners 2 and 3 (stored after A's); A closes it on a
    /// later post and B on its clock. Window 2: both close it at once, each on a later post. Each
    /// window is in the feed once, located from all four scanners, and both closers answer with
    /// that one position.
    @Test(.timeLimit(.minutes(2)), arguments: StoreBackend.allCases)
    func aWindowPostedToTwoInstancesIsLocatedOnceFromAllItsSightings(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let floor = try await database.createFloor(NewFloor(name: "Ground"))
            let room = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
            _ = try await database.createLocation(NewLocation(roomID: room.id, x: 3, y: 4))
            try await TagWorld.placeScanners(in: database, floorID: floor.id)
            let tag = try await database.createTag(NewTag(name: "bike", identity: TagWorld.tagIdentity))
            let (clockA, clockB) = (WatchedClock(), WatchedClock())
            let (closedOnBsClock, tellB) = AsyncStream.makeStream(of: [TagPosition].self)
            let a = TagWindowCloser(tracker: TagTracker(database: database), clock: clockA, logger: Logger(label: "instance A")) { _ in }
            let b = TagWindowCloser(tracker: TagTracker(database: database), clock: clockB, logger: Logger(label: "instance B")) { tellB.yield($0) }

            /// Scanner `index` posts the tag at (3, 4) in the window ending at `second` to `closer`.
            @Sendable func post(_ index: Int, at second: TimeInterval, to closer: TagWindowCloser) async throws -> [TagPosition] {
                let batch = SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [TagWorld.sighting(rssi: TagWorld.rssi(index, tagAt: 3, 4), at: second)])
                let ingest = try await database.ingestSightings(batch, reading: TagTracker.Settings().rssiStatistic)
                return try await closer.heard(ingest.tagsHeard, storedUpTo: ingest.lastSightingID)
            }

            for (index, closer) in [(0, a), (1, a), (2, b), (3, b)] {
                #expect(try await post(index, at: 1, to: closer).isEmpty)
            }
            let first = try #require(try await post(0, at: 2, to: a).first, "window 1 closed by A on window 2's post")
            #expect(first.time == Readings.start.addingTimeInterval(1) && first.scannersHeard == 4, "B's posts counted too")
            #expect(abs(first.x - 3) < 0.5 && abs(first.y - 4) < 0.5 && first.roomID == room.id, "\(first)")
            await clockB.sleepers(1)
            await clockB.advance(by: TagWindowCloser.defaultCloseAfter + .milliseconds(1))
            var told = closedOnBsClock.makeAsyncIterator()
            #expect(await told.next() == [first], "B closes window 1 on its clock and gets A's position back")

            #expect(try await post(1, at: 2, to: a).isEmpty)
            for index in [2, 3] {
                #expect(try await post(index, at: 2, to: b).isEmpty)
            }
            async let byA = post(0, at: 3, to: a)
            async let byB = post(1, at: 3, to: b)
            let (closedByA, closedByB) = try await (byA, byB)
            let second = try #require(closedByA.first)
            #expect(closedByA == [second] && closedByB == [second], "one position, whichever stored it")
            #expect(second.time == Readings.start.addingTimeInterval(2) && second.scannersHeard == 4)

            let feed = try await database.tagPositions(of: tag.id, since: nil, until: nil, after: 0, limit: 10)
            #expect(feed.items == [first, second], "one position per window in the feed")
            #expect(feed.endOfFeed == second.id)
        }
    }
}
