import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Fixed scanners report sightings; switchd stores them, locates the tag, raises the missing
/// tag's event and calibrates the scanners' receive offsets from registered beacons.
@Suite struct TagTrackingTests {
    @Test func placementsAreSetShownAndRemoved() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let placed = try await client.expect(
                .ok, .put, "/v1/scanners/default/placement",
                json: NewScannerPlacement(floorID: world.ground.id, x: 1, y: 2, receiveOffsetOverride: -3), as: ScannerPlacement.self
            )
            #expect(placed == ScannerPlacement(
                scannerID: .default, floorID: world.ground.id, x: 1, y: 2, height: NewScannerPlacement.defaultHeight,
                pathLossExponent: NewScannerPlacement.defaultPathLossExponent, receiveOffsetOverride: -3, estimatedReceiveOffset: nil,
                calibrationSamples: 0
            ))
            #expect(placed.receiveOffset == -3)
            #expect(try await client.expect(.ok, get: "/v1/scanners/default/placement", as: ScannerPlacement.self) == placed)
            #expect(try await client.expect(.ok, get: "/v1/placements?floor=\(world.ground.id)", as: [ScannerPlacement].self) == [placed])
            #expect(try await client.expect(.ok, get: "/v1/placements?floor=\(world.first.id)", as: [ScannerPlacement].self).isEmpty)

            let badFloor = try await client.send(.put, "/v1/scanners/default/placement", json: NewScannerPlacement(floorID: 99, x: 1, y: 2))
            #expect(try errorBody(badFloor).field == "floorID")
            let badOffset = try await client.send(
                .put, "/v1/scanners/default/placement", json: NewScannerPlacement(floorID: world.ground.id, x: 1, y: 2, receiveOffsetOverride: 80)
            )
            #expect(try errorBody(badOffset).field == "receiveOffsetOverride")
            #expect(try await client.send(.put, "/v1/scanners/nobody/placement", json: NewScannerPlacement(floorID: 1, x: 1, y: 2)).status == .notFound)
            #expect(try await client.expect(.ok, get: "/v1/scanners/default/placement", as: ScannerPlacement.self) == placed)

            #expect(try await client.execute(uri: "/v1/scanners/default/placement", method: .delete).status == .noContent)
            #expect(try await client.get("/v1/scanners/default/placement").status == .notFound)
        }
    }

    /// Four scanners post each window one after another; the tag is located once per window,
    /// when the window closes (a later window's first post), from all four.
    @Test func sightingsFromFourScannersLocateTheTagOncePerWindow() async throws {
        try await makeApp(try .inMemory(), clock: WatchedClock()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)

            let first = try await TagWorld.report(client, tagAt: 3, 4, at: 1)
            #expect(first.stored == 4 && first.ignored == 0)
            #expect(first.positions.isEmpty, "the window is open until a later one is reported")
            let second = try await TagWorld.report(client, tagAt: 3.5, 4, at: 2)
            #expect(second.positions.count == 1, "window 1 located once, by window 2's first post")
            let position = try #require(second.positions.first)
            #expect(position.tagID == tag.id && position.floorID == world.ground.id && position.scannersHeard == 4)
            #expect(abs(position.x - 3) < 0.5 && abs(position.y - 4) < 0.5, "\(position)")
            #expect(position.method == "tag-multilateration+filtered")
            #expect(position.roomID == world.rooms[0].id, "the room of location B at (3, 4)")
            #expect(position.time == Readings.start.addingTimeInterval(1))

            let closed = try await TagWorld.closeWindow(client, after: 2)
            let latest = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/positions/latest", as: TagPosition.self)
            #expect(closed == [latest])
            #expect(latest.time == Readings.start.addingTimeInterval(2))
            #expect(abs(latest.x - 3.5) < 0.6 && abs(latest.y - 4) < 0.5, "\(latest)")
            let page = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/positions?limit=3", as: Page<TagPosition>.self)
            #expect(Set(page.items.map(\.time)) == Set([1.0, 2.0].map { Readings.start.addingTimeInterval($0) }))
            #expect(page.items.count == 2 && page.items.allSatisfy { $0.scannersHeard == 4 }, "one position stored per window, from all four posts")
            let sightings = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/sightings?limit=2", as: [StoredSighting].self)
            #expect(sightings.map(\.scannerID) == [TagWorld.scannerID(0), TagWorld.scannerID(3)], "newest first")
            #expect(sightings.last?.medianRSSI == TagWorld.rssi(3, tagAt: 3.5, 4))
        }
    }

    /// A window no later post closes (the tag fell silent) is closed on the clock, and its
    /// position is stored (the replay driver and the admin page read it there).
    @Test(.timeLimit(.minutes(1))) func aWindowNoLaterPostClosesIsLocatedOnTheClock() async throws {
        let clock = WatchedClock()
        try await makeApp(try .inMemory(), clock: clock).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            #expect(try await TagWorld.report(client, tagAt: 3, 4, at: 1).positions.isEmpty)
            await clock.advance(by: TagWindowCloser.defaultCloseAfter + .milliseconds(1))
            let page = try await TagWorld.positions(client, of: tag.id, count: 1)
            #expect(page.map(\.time) == [Readings.start.addingTimeInterval(1)] && page.first?.scannersHeard == 4)
        }
    }

    /// Scanners posting one window slowly, one after another over more than the close delay,
    /// are all counted: each post restarts the wait, so the window closes after the last.
    @Test(.timeLimit(.minutes(1))) func slowPostsOfOneWindowAreAllCounted() async throws {
        let clock = WatchedClock()
        try await makeApp(try .inMemory(), clock: clock).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            let gap = TagWindowCloser.defaultCloseAfter * 2 / 3
            for index in TagWorld.corners.indices {
                if index > 0 { await clock.advance(by: gap) }
                let batch = SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [TagWorld.sighting(rssi: TagWorld.rssi(index, tagAt: 3, 4), at: 1)])
                let receipt = try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self)
                #expect(receipt.positions.isEmpty)
            }
            #expect(try await client.get("/v1/tags/\(tag.id)/positions/latest").status == .notFound, "still open: the last post restarted the wait")
            await clock.advance(by: TagWindowCloser.defaultCloseAfter + .milliseconds(1))
            let page = try await TagWorld.positions(client, of: tag.id, count: 1)
            #expect(page.count == 1 && page.first?.scannersHeard == 4, "one position, from all four posts")
        }
    }

    /// Posts of one window arriving together may reach the window closer in another order than
    /// the store took them: the window still counts every post's sighting, not only those stored
    /// up to the post that reached it last (which made the same sightings locate differently).
    @Test func postsOfOneWindowReachingTheCloserOutOfOrderAreAllCounted() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database, clock: WatchedClock()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            _ = try await TagWorld.report(client, tagAt: 3, 4, at: 1)
            let stored = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/sightings?limit=4", as: [StoredSighting].self).map(\.id)
            let (last, second) = (try #require(stored.max()), try #require(stored.sorted().dropFirst().first))

            let closer = TagWindowCloser(tracker: TagTracker(database: database), clock: WatchedClock(), logger: Logger(label: "test")) { _ in }
            let end = Readings.start.addingTimeInterval(1)
            #expect(try await closer.heard([tag.id: end], storedUpTo: last).isEmpty)
            #expect(try await closer.heard([tag.id: end], storedUpTo: second).isEmpty, "an earlier-stored post reaching it last")
            let closed = try await closer.heard([tag.id: end.addingTimeInterval(1)], storedUpTo: last + 1)
            #expect(closed.map(\.scannersHeard) == [4], "every post of the window counted")
        }
    }

    /// The instance that closes a window may have stored only some of its sightings: it still
    /// locates from all of them, the hearings and the gap the strongest reading is ranged by alike,
    /// so the position is the one a closer that saw every sighting computes.
    @Test func aCloserThatStoredPartOfTheWindowLocatesAsOneThatStoredAll() async throws {
        func locate(storedUpToFirst: Bool) async throws -> TagPosition? {
            let database = try AppDatabase.inMemory()
            return try await makeApp(database, clock: WatchedClock()).test(.router) { client in
                let world = try await PositioningWorld.make(client)
                try await TagWorld.placeScanners(client, floorID: world.ground.id)
                let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
                _ = try await TagWorld.report(client, tagAt: 3, 4, at: 1)
                let first = try #require(try await client.expect(.ok, get: "/v1/tags/\(tag.id)/sightings?limit=4", as: [StoredSighting].self).map(\.id).min())
                return try await TagTracker(database: database).locate(
                    tag.id, at: Readings.start.addingTimeInterval(1), storedUpTo: storedUpToFirst ? first : nil
                )
            }
        }
        let partly = try #require(try await locate(storedUpToFirst: true))
        let all = try #require(try await locate(storedUpToFirst: false))
        #expect(partly.scannersHeard == 4 && all.scannersHeard == 4)
        #expect(partly.x == all.x && partly.y == all.y && partly.accuracyMetres == all.accuracyMetres)
    }

    @Test func oneScannerPutsTheTagAtIt() async throws {
        try await makeApp(try .inMemory(), clock: WatchedClock()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            _ = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            for second in [1.0, 2.0] {
                let batch = SightingBatch(scannerID: TagWorld.scannerID(2), sightings: [TagWorld.sighting(rssi: -60, at: second)])
                let receipt = try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self)
                guard second == 2 else { continue }
                let position = try #require(receipt.positions.first)
                #expect(position.x == 10 && position.y == 10 && position.scannersHeard == 1)
                #expect(position.method == "strongest-scanner+filtered")
            }
        }
    }

    @Test func unknownIdentitiesAreCountedNotStored() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let stranger = TagIdentity.address(MACAddress(rawValue: 0x02_00_00_00_00_01))
            let batch = SightingBatch(scannerID: .default, sightings: [TagWorld.sighting(stranger, rssi: -70, at: 1)])
            let receipt = try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self)
            #expect(receipt == SightingReceipt(stored: 0, ignored: 1, positions: []))
        }
    }

    @Test func badSightingsAreRefusedAndNothingIsStored() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            var bad = TagWorld.sighting(rssi: -70, at: 2)
            bad.count = 0
            let refused = try await client.send(
                .post, "/v1/sightings", json: SightingBatch(scannerID: .default, sightings: [TagWorld.sighting(rssi: -70, at: 1), bad])
            )
            #expect(refused.status == .unprocessableContent)
            #expect(try errorBody(refused).field == "sightings[1].count")
            #expect(try await client.expect(.ok, get: "/v1/tags/\(tag.id)/sightings", as: [StoredSighting].self).isEmpty)
            let unknownScanner = try await client.send(.post, "/v1/sightings", json: SightingBatch(scannerID: try ScannerID("ghost"), sightings: []))
            #expect(unknownScanner.status == .notFound)
        }
    }

    @Test func aMissingTagHeardRaisesOneEventUntilMarkedMissingAgain() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let tag = try await client.expect(
                .created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity, missing: true), as: ScanContract.Tag.self
            )
            let report = { (second: TimeInterval) in
                _ = try await client.expect(
                    .created, .post, "/v1/sightings",
                    json: SightingBatch(scannerID: .default, sightings: [TagWorld.sighting(rssi: -70, at: second)]), as: SightingReceipt.self
                )
            }
            try await report(1)
            try await report(2)
            var events = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/events", as: Page<PresenceEvent>.self).items
            #expect(events.map(\.kind) == [.missingTagHeard])
            #expect(events.first?.scannerID == .default && events.first?.time == Readings.start.addingTimeInterval(1))

            _ = try await client.expect(.ok, .patch, "/v1/tags/\(tag.id)", json: TagPatch(missing: false), as: ScanContract.Tag.self)
            try await report(3)
            _ = try await client.expect(.ok, .patch, "/v1/tags/\(tag.id)", json: TagPatch(missing: true), as: ScanContract.Tag.self)
            try await report(4)
            events = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/events", as: Page<PresenceEvent>.self).items
            #expect(events.map(\.time) == [Readings.start.addingTimeInterval(1), Readings.start.addingTimeInterval(4)])
        }
    }

    /// Integrators get a missing tag heard as any presence event: in `/v1/events`, and queued for
    /// the webhooks that subscribed to its kind (MQTT relays the same feed).
    @Test func aMissingTagHeardIsAPresenceEventForWebhooks() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let hook = try await client.expect(
                .created, .post, "/v1/webhooks", json: NewWebhook(url: "https://hooks.example.org/bikes", events: [.missingTagHeard]),
                as: CreatedWebhook.self
            )
            let tag = try await client.expect(
                .created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity, missing: true), as: ScanContract.Tag.self
            )
            for second in [1.0, 2.0] {
                _ = try await client.expect(
                    .created, .post, "/v1/sightings",
                    json: SightingBatch(scannerID: .default, sightings: [TagWorld.sighting(rssi: -70, at: second)]), as: SightingReceipt.self
                )
            }
            let events = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
            #expect(events.map(\.kind) == [.missingTagHeard] && events.map(\.tagID) == [tag.id])
            #expect(events.first?.scannerID == .default && events.first?.time == Readings.start.addingTimeInterval(1))
            #expect(events.first?.type == "presence.missingTagHeard")
            let deliveries = try await client.expect(.ok, get: "/v1/webhooks/\(hook.webhook.id)/deliveries", as: Page<WebhookDelivery>.self).items
            #expect(deliveries.map(\.eventID) == events.map(\.id) && deliveries.map(\.kind) == [.missingTagHeard])
        }
    }

    /// A missing tag heard is one row, its presence event, which `/v1/tags/{id}/events` reads
    /// now that `tag_event` is gone: the page is byte for byte what the tag_event table gave
    /// (the first event of a fresh store, ID 1), and its IDs are those of `/v1/events`.
    @Test func aMissingTagHeardIsStoredOnceAndItsTagsEventsPageIsUnchanged() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let tag = try await client.expect(
                .created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity, missing: true), as: ScanContract.Tag.self
            )
            _ = try await client.expect(
                .created, .post, "/v1/sightings",
                json: SightingBatch(scannerID: .default, sightings: [TagWorld.sighting(rssi: -70, at: 1)]), as: SightingReceipt.self
            )
            let page = try await client.get("/v1/tags/\(tag.id)/events")
            #expect(page.status == .ok)
            #expect(String(buffer: page.body) == """
                {"items":[{"id":1,"kind":"missingTagHeard","scannerID":"default","tagID":\(tag.id),"time":"2026-09-21T14:13:21.000Z"}]}
                """)
            let presence = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
            #expect(presence.map(\.id) == [1] && presence.map(\.tagID) == [tag.id])
            let (rows, tables) = try await database.writer.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM presence_event") ?? 0,
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'tag_event'")
                )
            }
            #expect(rows == 1 && tables.isEmpty, "one row for the event, no tag_event table")
        }
    }

    @Test func beaconsAtKnownPositionsCalibrateAScannerThatReadsLow() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            _ = try await client.expect(
                .ok, .put, "/v1/scanners/default/placement", json: NewScannerPlacement(floorID: world.ground.id, x: 0, y: 0, height: 1), as: ScannerPlacement.self
            )
            var sightings: [Sighting] = []
            // At these distances the model's RSSI is a whole dBm, so a window's median and
            // strongest reading can both be it: the estimate is exact whichever switchd reads.
            for (minor, x) in [(1, 1.0), (2, 10.0.squareRoot()), (3, 10.0)] {
                let beacon = try await client.expect(
                    .created, .post, "/v1/beacons",
                    json: NewBeacon(uuid: Readings.beaconUUID, major: 1, minor: UInt16(minor), floorID: world.ground.id, x: x, y: 0, z: 1, measuredPower: -59),
                    as: Beacon.self
                )
                // This receiver reads 6 dB below the model.
                let rssi = (-59 - 20 * log10(x) - 6).rounded()
                var sighting = TagWorld.sighting(.iBeacon(beacon.beaconID), rssi: rssi, at: 1)
                sighting.maxRSSI = Int(rssi)
                sightings.append(sighting)
            }
            let receipt = try await client.expect(
                .created, .post, "/v1/sightings", json: SightingBatch(scannerID: .default, sightings: sightings), as: SightingReceipt.self
            )
            #expect(receipt.stored == 3 && receipt.positions.isEmpty)
            let placement = try await client.expect(.ok, get: "/v1/scanners/default/placement", as: ScannerPlacement.self)
            #expect(abs((placement.estimatedReceiveOffset ?? 0) - 6) < 1e-6)
            #expect(placement.calibrationSamples == 3 && placement.receiveOffset == placement.estimatedReceiveOffset)

            let overridden = try await client.expect(
                .ok, .put, "/v1/scanners/default/placement",
                json: NewScannerPlacement(floorID: world.ground.id, x: 0, y: 0, height: 1, receiveOffsetOverride: 2), as: ScannerPlacement.self
            )
            #expect(overridden.receiveOffset == 2 && overridden.estimatedReceiveOffset == placement.estimatedReceiveOffset)
        }
    }

    /// A beacon's measured power is declared in the median's sense: whichever figure of a window
    /// switchd reads, the offset it estimates is the receiver's own.
    @Test func theOffsetIsTheReceiversOwnWhicheverFigureIsRead() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            _ = try await client.expect(
                .ok, .put, "/v1/scanners/default/placement", json: NewScannerPlacement(floorID: world.ground.id, x: 0, y: 0, height: 1), as: ScannerPlacement.self
            )
            let beacon = try await client.expect(
                .created, .post, "/v1/beacons",
                json: NewBeacon(uuid: Readings.beaconUUID, major: 1, minor: 1, floorID: world.ground.id, x: 10, y: 0, z: 1, measuredPower: -59),
                as: Beacon.self
            )
            // The model says −79 dBm at 10 m; this receiver's median reads 6 dB below it, and the
            // window's strongest reading lies 5 dB above its median.
            var sighting = TagWorld.sighting(.iBeacon(beacon.beaconID), rssi: -85, at: 1)
            sighting.maxRSSI = -80
            _ = try await client.expect(
                .created, .post, "/v1/sightings", json: SightingBatch(scannerID: .default, sightings: [sighting]), as: SightingReceipt.self
            )
            let placement = try await client.expect(.ok, get: "/v1/scanners/default/placement", as: ScannerPlacement.self)
            #expect(abs((placement.estimatedReceiveOffset ?? .nan) - 6) < 1e-6, "estimated \(String(describing: placement.estimatedReceiveOffset))")
        }
    }

    /// A tag's txPower is declared in the median's sense (iBeacon's measured power): windows whose
    /// strongest reading lies 6 dB above their median still range the tag to where it is, not
    /// to half its distances (ranged with the strongest reading against the declared power, the
    /// tag at (1.5, 2) is placed 0.75 m off; corrected, 0.14 m).
    @Test func aDeclaredPowerRangesTheTagWhateverItsStrongestReadingLiesAbove() async throws {
        try await makeApp(try .inMemory(), clock: WatchedClock()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            _ = try await client.expect(
                .created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity, txPower: -59), as: ScanContract.Tag.self
            )
            var positions: [TagPosition] = []
            for second in 1...4 {
                for index in TagWorld.corners.indices {
                    // The median is the model's reading (as a whole dBm: the wire's strongest is one).
                    let median = TagWorld.rssi(index, tagAt: 1.5, 2).rounded()
                    var sighting = TagWorld.sighting(rssi: median, at: TimeInterval(second))
                    sighting.maxRSSI = Int(median) + 6
                    let receipt = try await client.expect(
                        .created, .post, "/v1/sightings", json: SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [sighting]),
                        as: SightingReceipt.self
                    )
                    positions += receipt.positions
                }
            }
            #expect(positions.count == 3)
            for position in positions {
                let error = ((position.x - 1.5) * (position.x - 1.5) + (position.y - 2) * (position.y - 2)).squareRoot()
                print("declared power, strongest reading 6 dB above the median: \(position.x), \(position.y), error \(error) m")
                #expect(position.method == "tag-multilateration+filtered" && error < 0.3, "\(position)")
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aTagsPositionsAndEventsStreamAsTheyHappen() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let port = try #require(client.port)
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            // Windows 1 and 2 are located (positions 1 and 2) once window 3 is reported.
            for second in [1.0, 2.0, 3.0] { try await TagWorld.report(client, tagAt: 3, 4, at: second) }
            let events = try await withEventStream(port: port, path: "/v1/tags/\(tag.id)/positions/stream?after=1") { reader in
                #expect(try await reader.status() == 200)
                let old = try #require(try await reader.nextEvent())
                try await TagWorld.report(client, tagAt: 3, 4, at: 4)
                return [old, try #require(try await reader.nextEvent())]
            }
            #expect(events.map(\.event) == ["tagPosition", "tagPosition"])
            #expect(events.map(\.id) == ["2", "3"])
            let position = try JSONCoding.decoder().decode(TagPosition.self, from: Data(events[1].data.utf8))
            #expect(position.tagID == tag.id && position.time == Readings.start.addingTimeInterval(3))

            _ = try await client.expect(.ok, .patch, "/v1/tags/\(tag.id)", json: TagPatch(missing: true), as: ScanContract.Tag.self)
            let missing = try await withEventStream(port: port, path: "/v1/tags/\(tag.id)/events/stream") { reader in
                #expect(try await reader.status() == 200)
                try await TagWorld.report(client, tagAt: 3, 4, at: 5)
                return try #require(try await reader.nextEvent())
            }
            #expect(missing.event == "tagEvent")
            #expect(try JSONCoding.decoder().decode(PresenceEvent.self, from: Data(missing.data.utf8)).kind == .missingTagHeard)
        }
    }
}

/// The fixed scanners' fingerprints: registered beacons the scanners heard are reference points.
@Suite struct TagFingerprintTrackingTests {
    /// Scanner 0 reads this far below the model, and no offset corrects it (overridden with 0).
    static let bias = [-12.0, 0, 0, 0]

    /// Registers a beacon at (x, y) and has every scanner report it for the window ending at `second`.
    static func survey(_ client: some TestClientProtocol, floorID: Int64, minor: UInt16, at x: Double, _ y: Double, second: TimeInterval) async throws {
        let beacon = try await client.expect(
            .created, .post, "/v1/beacons",
            json: NewBeacon(uuid: Readings.beaconUUID, major: 9, minor: minor, floorID: floorID, x: x, y: y, z: 1, measuredPower: -59),
            as: Beacon.self
        )
        for index in TagWorld.corners.indices {
            let rssi = TagWorld.rssi(index, tagAt: x, y, bias: bias[index])
            let batch = SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [TagWorld.sighting(.iBeacon(beacon.beaconID), rssi: rssi, at: second)])
            _ = try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self)
        }
    }

    /// Every scanner reports the tag at (x, y), as biased as in the survey; the window's
    /// position, once a later window closes it.
    static func locate(_ client: some TestClientProtocol, tagAt x: Double, _ y: Double, at second: TimeInterval) async throws -> TagPosition {
        for index in TagWorld.corners.indices {
            let rssi = TagWorld.rssi(index, tagAt: x, y, bias: bias[index])
            let batch = SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [TagWorld.sighting(rssi: rssi, at: second)])
            _ = try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self)
        }
        return try #require(try await TagWorld.closeWindow(client, after: second).first)
    }

    @Test func surveyedBeaconsBecomeFingerprintsAndNewOnesAreUsedAtOnce() async throws {
        try await makeApp(try .inMemory(), clock: WatchedClock()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            for index in TagWorld.corners.indices {
                let corner = TagWorld.corners[index]
                _ = try await client.expect(
                    .ok, .put, "/v1/scanners/\(TagWorld.scannerID(index))/placement",
                    json: NewScannerPlacement(floorID: world.ground.id, x: corner.0, y: corner.1, height: 2.5, receiveOffsetOverride: 0),
                    as: ScannerPlacement.self
                )
            }
            _ = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            let error = { (p: TagPosition) in ((p.x - 2) * (p.x - 2) + (p.y - 8) * (p.y - 8)).squareRoot() }

            let unsurveyed = try await Self.locate(client, tagAt: 2, 8, at: 1)
            #expect(unsurveyed.method == "tag-multilateration+filtered")
            #expect(error(unsurveyed) > 1, "the receiver reading 12 dB low pushes the tag away: \(unsurveyed)")

            try await Self.survey(client, floorID: world.ground.id, minor: 1, at: 8, 8, second: -100)
            try await Self.survey(client, floorID: world.ground.id, minor: 2, at: 2, 2, second: -100)
            let farSurvey = try await Self.locate(client, tagAt: 2, 8, at: 100)
            #expect(farSurvey.method == "fused+filtered")

            try await Self.survey(client, floorID: world.ground.id, minor: 3, at: 2, 8, second: -90)
            let surveyed = try await Self.locate(client, tagAt: 2, 8, at: 200)
            #expect(surveyed.method == "fused+filtered")
            #expect(error(surveyed) < error(unsurveyed) / 2, "a reference point where the tag is: \(surveyed) vs \(unsurveyed)")
            #expect(error(surveyed) < error(farSurvey), "the point surveyed last is in the map")
        }
    }
}
