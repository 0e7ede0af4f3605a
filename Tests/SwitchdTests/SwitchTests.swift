import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The scan switch: revisions, long-poll, the seed endpoint and stop conditions.
@Suite struct SwitchTests {
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

    @Test func longPollAnswersAtOnceWhenRevisionDiffers() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let clock = ContinuousClock()
            let start = clock.now
            let answer = try await client.expect(.ok, get: "/v1/scanners/default/switch?revision=5&wait=20", as: ScanSwitch.self)
            #expect(answer.revision == 1)
            // Far below the 20 s wait, and far above a loaded shared machine's worst stall.
            #expect(clock.now - start < .seconds(10))
        }
    }

    @Test func longPollAnswersPromptlyAfterAPatch() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let clock = ContinuousClock()
            async let polled = client.expect(.ok, get: "/v1/scanners/default/switch?revision=1&wait=20", as: ScanSwitch.self)
            try await Task.sleep(for: .milliseconds(200))
            let patchedAt = clock.now
            let patched = try await client.patchSwitch(SwitchPatch(scanning: true))
            let answer = try await polled
            #expect(answer == patched)
            #expect(clock.now - patchedAt < .seconds(10), "the waiting request is woken, not timed out (its wait is 20 s)")
        }
    }

    @Test func longPollTimesOutWithTheSameShape() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let clock = ContinuousClock()
            let start = clock.now
            let answer = try await client.expect(.ok, get: "/v1/scanners/default/switch?revision=1&wait=0.3", as: ScanSwitch.self)
            #expect(answer.revision == 1)
            #expect(clock.now - start >= .milliseconds(300))
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
        try await makeApp(try .inMemory()).test(.router) { client in
            let clock = ContinuousClock()
            let on = try await client.patchSwitch(SwitchPatch(scanning: true, mode: .locate, stopAfter: .set(.seconds(0.3))))
            let start = clock.now
            let stopped = try await client.expect(.ok, get: "/v1/scanners/default/switch?revision=\(on.revision)&wait=60", as: ScanSwitch.self)
            let waited = clock.now - start
            #expect(stopped.revision == on.revision + 1)
            #expect(!stopped.scanning && stopped.stoppedBy == .stopCondition)
            #expect(waited >= .milliseconds(200) && waited < .seconds(30), "turned off near its deadline, not at the wait's end: \(waited)")
            let deadline = try #require(on.deadline)
            #expect(stopped.changedAt >= deadline)
        }
    }
}
