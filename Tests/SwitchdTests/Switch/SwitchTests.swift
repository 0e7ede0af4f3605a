import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The scan switch: revisions, long-poll, the seed endpoint and stop conditions. Long-polls and
/// deadlines wait on a clock the test advances.
@Suite(.timeLimit(.minutes(1)))
struct SwitchTests {
    @Test func patchBumpsRevisionAndIdempotentPatchKeepsIt() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let first = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            #expect(first.revision == 1)

            let on = try await client.startSurvey(at: spot.location.id)
            #expect(on.revision == 2 && on.scanning && on.mode == .survey && on.storeData)
            #expect(on.roomID == spot.room.id, "the room comes from the location")

            let same = try await client.startSurvey(at: spot.location.id)
            #expect(same == on, "a PATCH that changes nothing keeps the revision")

            let off = try await client.patchSwitch(SwitchPatch(scanning: false))
            #expect(off.revision == 3 && !off.scanning && off.stoppedBy == .turnedOff)
            #expect(try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self) == off)
        }
    }

    @Test func patchChecksPlaceAndRevision() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let otherRoom = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: spot.floor.id, name: "Hall"), as: Room.self)
            let before = try await StoredCounts(database)

            let unknownLocation = try await client.send(.patch, "/v1/scanners/default/switch", json: SwitchPatch(scanning: true, mode: .survey, locationID: .set(999)))
            #expect(unknownLocation.status == .unprocessableContent)
            #expect(try errorBody(unknownLocation).field == "locationID")

            let disagreeing = try await client.send(.patch, "/v1/scanners/default/switch", json: SwitchPatch(
                scanning: true, mode: .survey, roomID: .set(otherRoom.id), locationID: .set(spot.location.id)
            ))
            #expect(disagreeing.status == .unprocessableContent)
            #expect(try errorBody(disagreeing).field == "roomID")

            let unknownRoom = try await client.send(.patch, "/v1/scanners/default/switch", json: SwitchPatch(roomID: .set(998)))
            #expect(unknownRoom.status == .unprocessableContent)
            #expect(try errorBody(unknownRoom).field == "roomID")

            let surveyNowhere = try await client.send(.patch, "/v1/scanners/default/switch", json: SwitchPatch(scanning: true, mode: .survey))
            #expect(surveyNowhere.status == .unprocessableContent)
            #expect(try errorBody(surveyNowhere).field == "locationID")

            let stale = try await client.send(.patch, "/v1/scanners/default/switch", json: SwitchPatch(scanning: true, expectedRevision: 7))
            #expect(stale.status == .conflict)
            #expect(try errorBody(stale).code == "conflict")

            let unknownScanner = try await client.send(.patch, "/v1/scanners/nobody/switch", json: SwitchPatch(scanning: true))
            #expect(unknownScanner.status == .notFound)

            #expect(try await StoredCounts(database) == before, "refused changes make no revision")
            let expected = try await client.patchSwitch(SwitchPatch(scanning: true, expectedRevision: 1))
            #expect(expected.revision == 2)
        }
    }

    /// The deadline service sleeps on the clock from the start; a long-poll is the next sleeper.
    static let longPollSleeping = 2

    @Test func longPollAnswersAtOnceWhenRevisionDiffers() async throws {
        // The clock never moves: an answer came without waiting.
        try await makeApp(try .inMemory(), clock: WatchedClock()).test(.router) { client in
            let answer = try await client.expect(.ok, get: "/v1/scanners/default/switch?revision=5&wait=20", as: ScanSwitch.self)
            #expect(answer.revision == 1)
        }
    }

    @Test func longPollAnswersPromptlyAfterAPatch() async throws {
        let clock = WatchedClock()
        try await makeApp(try .inMemory(), clock: clock).test(.router) { client in
            async let polled = client.expect(.ok, get: "/v1/scanners/default/switch?revision=1&wait=20", as: ScanSwitch.self)
            await clock.sleepers(Self.longPollSleeping)
            let patched = try await client.patchSwitch(SwitchPatch(scanning: true))
            // The clock never moves: the waiting request was woken, not timed out.
            let answer = try await polled
            #expect(answer == patched)
        }
    }

    /// The watched tags come with the switch a listening scanner reads (`watched=`, the digest
    /// of the list it holds): every registered tag. Its long-poll is answered when a tag is
    /// added, at the same revision, and at once when its list is already out of date.
    @Test func longPollAnswersWhenTheWatchedTagsChange() async throws {
        let clock = WatchedClock()
        let bike = TagIdentity.address(try MACAddress("02:00:00:00:00:0b"))
        try await makeApp(try .inMemory(), clock: clock).test(.router) { client in
            let none = WatchedTags.digest(of: [])
            let initial = try await client.expect(.ok, get: "/v1/scanners/default/switch?watched=\(none)", as: ScanSwitch.self)
            #expect(initial.watchedTags == [])
            #expect(try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self).watchedTags == nil, "only a listening scanner asks")
            async let polled = client.expect(.ok, get: "/v1/scanners/default/switch?revision=1&wait=20&watched=\(none)", as: ScanSwitch.self)
            await clock.sleepers(Self.longPollSleeping)
            _ = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: bike), as: ScanContract.Tag.self)
            // The clock never moves: the waiting request was woken, not timed out.
            let answer = try await polled
            #expect(answer.revision == 1 && answer.watchedTags == [bike])
            let stale = try await client.expect(.ok, get: "/v1/scanners/default/switch?revision=1&wait=20&watched=\(none)", as: ScanSwitch.self)
            #expect(stale.watchedTags == [bike], "a scanner holding an old list is answered at once")
        }
    }

    @Test func longPollTimesOutWithTheSameShape() async throws {
        let clock = WatchedClock()
        try await makeApp(try .inMemory(), clock: clock).test(.router) { client in
            async let polled = client.expect(.ok, get: "/v1/scanners/default/switch?revision=1&wait=0.3", as: ScanSwitch.self)
            await clock.sleepers(Self.longPollSleeping)
            await clock.advance(by: .milliseconds(299))
            await clock.advance(by: .milliseconds(2))
            let answer = try await polled
            #expect(answer.revision == 1)
            #expect(try await client.get("/v1/scanners/default/switch?revision=1&wait=-1").status == .unprocessableContent)
            #expect(try await client.get("/v1/scanners/default/switch?revision=x").status == .unprocessableContent)
        }
    }

    @Test func seedSwitchMapsOntoTheDefaultScanner() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let initial = try await client.expect(.ok, get: "/scanSwitch/1", as: SeedScanSwitch.self)
            #expect(initial.id == 1 && !initial.shouldScan && !initial.storeData && initial.locationID == nil)

            let seedOn = try await client.expect(.ok, .patch, "/scanSwitch/1", json: SeedSwitchPatch(
                shouldScan: true, locationID: spot.location.id, storeData: true
            ), as: SeedScanSwitch.self)
            #expect(seedOn.shouldScan && seedOn.storeData && seedOn.locationID == spot.location.id && seedOn.roomID == spot.room.id)
            let v1 = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            #expect(v1.scanning && v1.mode == .survey && v1.locationID == spot.location.id && v1.revision == 2)

            // storeData false is the seed's positioning scan; 0 clears the place.
            let locate = try await client.expect(.ok, .patch, "/scanSwitch/1", json: SeedSwitchPatch(
                roomID: 0, locationID: 0, storeData: false
            ), as: SeedScanSwitch.self)
            #expect(locate.shouldScan && !locate.storeData && locate.roomID == nil && locate.locationID == nil)
            #expect(try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self).mode == .locate)

            #expect(try await client.get("/scanSwitch/2").status == .notFound)
            #expect(try await client.send(.patch, "/scanSwitch/1", text: #"{"shouldScan": "yes"}"#).status == .unprocessableContent)
        }
    }

    @Test func scanCountStopsTheSwitchAfterScanNMinusOne() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id, stopAfter: .scans(3))

            _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 0), Readings.ble(scan: 1)], revision: on.revision))
            let progressing = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            #expect(progressing.revision == on.revision && progressing.scanning && progressing.scansCompleted == 2)

            _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 2)], revision: on.revision))
            let stopped = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            #expect(stopped.revision == on.revision + 1)
            #expect(!stopped.scanning && stopped.stoppedBy == .stopCondition && stopped.scansCompleted == 3)
        }
    }

    @Test func aBatchsScanCountOutranksItsReadingsScanIndices() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id, stopAfter: .scans(2))
            // BLE heard during the second scan, before that scan's Wi-Fi results: scan 1 is not
            // complete yet, so the switch stays on.
            var early = Readings.batch([Readings.ble(scan: 1)], revision: on.revision)
            early.scansCompleted = 1
            _ = try await client.uploadNew(early)
            let stillOn = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            #expect(stillOn.scanning && stillOn.scansCompleted == 1 && stillOn.revision == on.revision)

            var done = Readings.batch([Readings.wifi(scan: 1)], revision: on.revision)
            done.scansCompleted = 2
            _ = try await client.uploadNew(done)
            let stopped = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            #expect(!stopped.scanning && stopped.stoppedBy == .stopCondition && stopped.scansCompleted == 2)
        }
    }

    @Test func secondsConditionStopsTheSwitchByTheTimer() async throws {
        let database = try AppDatabase.inMemory()
        let hub = SwitchHub()
        let clock = WatchedClock()
        let start = Date(milliseconds: 1_795_000_000_000)
        let patch = SwitchPatch(scanning: true, mode: .locate, stopAfter: .set(.seconds(5)))
        let on = try await database.updateSwitch(of: .default, with: patch, at: start).scanSwitch
        #expect(on.deadline == start.addingTimeInterval(5))
        let service = SwitchDeadlineService(
            database: database, hub: hub, logger: Logger(label: "switchd-tests", factory: { _ in SwiftLogNoOpLogHandler() }),
            clock: clock, now: clock.wallClock(from: start)
        )
        let running = Task { try await service.run() }
        defer { running.cancel() }

        await clock.sleepers(1)
        await clock.advance(by: .milliseconds(4_999))
        #expect(try await database.currentSwitch(of: .default) == on, "still on 1 ms before its deadline")
        await clock.advance(by: .milliseconds(2))
        await hub.revisions(of: .default).wait(untilAbove: Int64(on.revision))
        let stopped = try await database.currentSwitch(of: .default)
        #expect(stopped.revision == on.revision + 1)
        #expect(!stopped.scanning && stopped.stoppedBy == .stopCondition)
        #expect(stopped.changedAt >= start.addingTimeInterval(5) && stopped.changedAt <= start.addingTimeInterval(5.001))
    }
}
