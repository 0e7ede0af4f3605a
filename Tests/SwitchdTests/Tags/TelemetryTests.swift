import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Telemetry forwarded with sightings is kept per tag and beacon (the latest only), shown in
/// `GET /v1/beacons` and `/v1/tags`, and raises `batteryLow` once per crossing of the threshold
/// (docs/fleet-health.md), through the events path: `/v1/events`, webhooks.
@Suite("Beacon and tag telemetry")
struct TelemetryTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let beaconIdentity = TagIdentity.iBeacon(BeaconID(uuid: Readings.beaconUUID, major: 4, minor: 2))
    static let tagIdentity = TagIdentity.address(MACAddress(rawValue: 0x02_00_00_00_00_0B))

    static func report(_ identity: TagIdentity, _ millivolts: Int?, at seconds: Double) -> HeardTelemetry {
        HeardTelemetry(
            identity: identity, heardAt: start.addingTimeInterval(seconds), batteryMillivolts: millivolts, temperatureCelsius: 21.5,
            advertisementCount: Int64(1000 + seconds), uptimeSeconds: 3600 + seconds
        )
    }

    static func batch(_ telemetry: [HeardTelemetry]) throws -> SightingBatch {
        SightingBatch(scannerID: try ScannerID("default"), sightings: [], telemetry: telemetry)
    }

    static func site(_ database: AppDatabase) async throws -> (beacon: Beacon, tag: ScanContract.Tag) {
        let floor = try await database.createFloor(NewFloor(name: "Ground", level: 0))
        let hall = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
        _ = try await database.setRoomOutline(hall.id, to: RoomOutline(outline: [[0, 0], [5, 0], [5, 5], [0, 5]]))
        let beacon = try await database.createBeacon(NewBeacon(uuid: Readings.beaconUUID, major: 4, minor: 2, floorID: floor.id, x: 1, y: 1, measuredPower: -59))
        let tag = try await database.createTag(NewTag(name: "Bike", identity: tagIdentity))
        return (beacon, tag)
    }

    /// Down through 2500 mV once, wavering under the hysteresis, up past 2600 and down again: two
    /// events. An older report (another scanner's, late) changes nothing; an unmeasured battery
    /// neither raises nor re-arms.
    @Test func batteryLowIsRaisedOncePerCrossing() async throws {
        let database = try AppDatabase.inMemory()
        let (beacon, _) = try await Self.site(database)
        let statistic = await TagTracker(database: database).settings.rssiStatistic
        var raised: [[PresenceEventKind]] = []
        for (millivolts, seconds) in [(2600, 0.0), (2499, 60), (2400, 120), (2550, 180), (nil, 200), (2600, 240), (2601, 300), (2450, 360), (2300, 420)] {
            let ingest = try await database.ingestSightings(try Self.batch([Self.report(Self.beaconIdentity, millivolts, at: seconds)]), reading: statistic)
            raised.append(ingest.presenceEvents.map(\.kind))
        }
        #expect(raised == [[], [.batteryLow], [], [], [], [], [], [.batteryLow], []])
        let late = try await database.ingestSightings(try Self.batch([Self.report(Self.beaconIdentity, 3000, at: 30)]), reading: statistic)
        #expect(late.presenceEvents.isEmpty)
        let kept = try #require(try await database.telemetry(of: .beacon(beacon.id)))
        #expect(kept == EmitterTelemetry(
            batteryMillivolts: 2300, temperatureCelsius: 21.5, advertisementCount: 1420, uptimeSeconds: 4020,
            reportedAt: Self.start.addingTimeInterval(420), scannerID: try ScannerID("default"), batteryLow: true
        ))
        let events = try await database.presenceEvents(matching: PresenceEventFilter(kind: .batteryLow), after: 0, limit: 100).items
        #expect(events.map(\.beaconID) == [beacon.id, beacon.id])
        #expect(events.map(\.time) == [Self.start.addingTimeInterval(60), Self.start.addingTimeInterval(360)])
        #expect(events.allSatisfy { $0.scannerID == nil && $0.tagID == nil && $0.floor == beacon.floorID })
        let hall = try #require(try await database.rooms(onFloor: beacon.floorID).first)
        #expect(events.allSatisfy { $0.roomID == hall.id }, "the room holding the beacon")
    }

    @Test func aThresholdOfItsOwnAndUnknownIdentitiesSkipped() async throws {
        let database = try AppDatabase.inMemory()
        let (_, tag) = try await Self.site(database)
        let statistic = await TagTracker(database: database).settings.rssiStatistic
        let stranger = TagIdentity.address(MACAddress(rawValue: 0x02_00_00_00_00_99))
        let ingest = try await database.ingestSightings(
            try Self.batch([Self.report(Self.tagIdentity, 2900, at: 0), Self.report(stranger, 1000, at: 0)]), reading: statistic,
            batteryLow: BatteryLowThreshold(millivolts: 3000)
        )
        #expect(ingest.presenceEvents.map(\.kind) == [.batteryLow] && ingest.presenceEvents.first?.tagID == tag.id)
        #expect(try await database.emitterTelemetry().map(\.subject) == [.tag(tag.id)])
    }

    /// Over real HTTP on loopback: a scanner's batch with telemetry, the telemetry in the
    /// registries, the event in `/v1/events` and queued for a webhook subscribed to beacons; a
    /// batch with a bad report is refused naming it, and nothing of it is kept.
    @Test func telemetryShowsInTheRegistriesAndTheEventReachesWebhooks() async throws {
        let database = try AppDatabase.inMemory()
        let (beacon, tag) = try await Self.site(database)
        try await makeApp(database).test(.live) { client in
            let hook = try await client.expect(
                .created, .post, "/v1/webhooks",
                json: NewWebhook(url: "https://hooks.example.org/batteries", events: [.batteryLow], subjects: [.beacons]), as: CreatedWebhook.self
            )
            var bad = Self.report(Self.tagIdentity, 70_000, at: 0)
            let refused = try await client.send(.post, "/v1/sightings", json: try Self.batch([Self.report(Self.beaconIdentity, 2400, at: 0), bad]))
            #expect(refused.status == .unprocessableContent)
            #expect(try errorBody(refused).field == "telemetry[1].batteryMillivolts")
            bad.batteryMillivolts = 2800
            let sent = try await client.send(.post, "/v1/sightings", json: try Self.batch([Self.report(Self.beaconIdentity, 2400, at: 0), bad]))
            #expect(sent.status == .created)

            let beacons = try await client.expect(.ok, get: "/v1/beacons", as: Page<Beacon>.self).items
            #expect(beacons.map(\.telemetry?.batteryMillivolts) == [2400] && beacons.first?.telemetry?.batteryLow == true)
            let shown = try await client.expect(.ok, get: "/v1/tags/\(tag.id)", as: ScanContract.Tag.self)
            #expect(shown.telemetry?.batteryMillivolts == 2800 && shown.telemetry?.batteryLow == false)
            #expect(shown.telemetry?.reportedAt == Self.start && shown.telemetry?.scannerID.rawValue == "default")
            #expect(try await client.expect(.ok, get: "/v1/tags", as: Page<ScanContract.Tag>.self).items.map(\.telemetry) == [shown.telemetry])

            let events = try await client.expect(.ok, get: "/v1/events?kind=batteryLow", as: Page<PresenceEvent>.self).items
            #expect(events.map(\.beaconID) == [beacon.id] && events.first?.type == "presence.batteryLow")
            let deliveries = try await client.expect(.ok, get: "/v1/webhooks/\(hook.webhook.id)/deliveries", as: Page<WebhookDelivery>.self).items
            #expect(deliveries.map(\.eventID) == events.map(\.id))
        }
    }

    /// A scanner that sends no telemetry (an older scannerd) is taken as before.
    @Test func aBatchWithoutTelemetryIsTakenAsBefore() async throws {
        let database = try AppDatabase.inMemory()
        let (beacon, _) = try await Self.site(database)
        try await makeApp(database).test(.live) { client in
            let end = Self.start.addingTimeInterval(1)
            let body = #"{"scannerID":"default","sightings":[{"identity":{"kind":"ibeacon","uuid":"\#(Readings.beaconUUID.uuidString)","major":4,"minor":2},"windowStart":"\#(JSONCoding.formatDate(Self.start))","windowEnd":"\#(JSONCoding.formatDate(end))","count":1,"medianRSSI":-70,"maxRSSI":-70}]}"#
            let sent = try await client.send(.post, "/v1/sightings", text: body)
            #expect(sent.status == .created, "\(String(buffer: sent.body))")
            let shown = try await client.expect(.ok, get: "/v1/beacons/\(beacon.id)", as: Beacon.self)
            #expect(shown.telemetry == nil)
        }
    }
}
