import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `POST /v1/measurements`: what is stored, tagged how, and what is refused.
@Suite struct IngestTests {
    @Test func surveyBatchIsStoredTaggedWithRoomAndLocation() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            let readings = [Readings.wifi(scan: 0, rssi: -48), Readings.ble(scan: 0, rssi: -71)]
            let batch = Readings.batch(readings, revision: on.revision)

            let receipt = try await client.uploadNew(batch)
            #expect(receipt == BatchReceipt(batchID: batch.batchID, stored: 2, duplicate: false, discarded: false))

            let page = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
            #expect(page.items.map(\.measurement) == readings)
            #expect(page.items.allSatisfy {
                $0.locationID == spot.location.id && $0.roomID == spot.room.id && $0.mode == .survey
                    && $0.switchRevision == on.revision && $0.batchID == batch.batchID && $0.scannerID == .default
            })
            #expect(page.items.map(\.sequence) == [1, 2])
            #expect(page.nextCursor == nil)
        }
    }

    @Test func replayedBatchIsADuplicateAndStoresNothing() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            let batch = Readings.batch([Readings.wifi(), Readings.ble()], revision: on.revision)
            _ = try await client.uploadNew(batch)
            let afterFirst = try await StoredCounts(database)

            let replay = try await client.upload(batch)
            #expect(replay.status == .ok)
            #expect(try decoded(BatchReceipt.self, replay) == BatchReceipt(batchID: batch.batchID, stored: 0, duplicate: true, discarded: false))
            #expect(try await StoredCounts(database) == afterFirst)
        }
    }

    @Test func locateBatchIsDiscardedUnlessStoreDataIsOn() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let locate = try await client.patchSwitch(SwitchPatch(scanning: true, mode: .locate, storeData: false))
            let dropped = Readings.batch([Readings.wifi()], revision: locate.revision)
            #expect(try await client.uploadNew(dropped) == BatchReceipt(batchID: dropped.batchID, stored: 0, duplicate: false, discarded: true))
            #expect(try await StoredCounts(database).measurements == 0)

            // The discarded batch's ID is remembered all the same.
            let replay = try await client.upload(dropped)
            #expect(replay.status == .ok)
            #expect(try decoded(BatchReceipt.self, replay).duplicate && decoded(BatchReceipt.self, replay).discarded)

            let keeping = try await client.patchSwitch(SwitchPatch(storeData: true))
            let kept = Readings.batch([Readings.wifi(), Readings.ble()], revision: keeping.revision)
            #expect(try await client.uploadNew(kept) == BatchReceipt(batchID: kept.batchID, stored: 2, duplicate: false, discarded: false))
            let page = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
            #expect(page.items.count == 2 && page.items.allSatisfy { $0.mode == .locate && $0.locationID == nil })
        }
    }

    @Test func lateUploadIsTaggedWithTheRevisionItWasScannedUnder() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let first = try await SurveySpot.make(client, name: "A")
            let second = try await client.expect(
                .created, .post, "/v1/locations", json: NewLocation(roomID: first.room.id, x: 9, y: 9), as: Location.self
            )
            let atFirst = try await client.startSurvey(at: first.location.id)
            _ = try await client.startSurvey(at: second.id)
            _ = try await client.uploadNew(Readings.batch([Readings.wifi()], revision: atFirst.revision))
            let page = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
            #expect(page.items.map(\.locationID) == [first.location.id])
        }
    }

    @Test func unknownScannerAndBadRevisionsAreRefused() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            let before = try await StoredCounts(database)

            let stranger = try await client.upload(Readings.batch([Readings.wifi()], revision: 1, scanner: try ScannerID("stranger")))
            #expect(stranger.status == .notFound)
            #expect(try errorBody(stranger).code == "not_found")
            #expect(try errorBody(stranger).batchID == nil, "not a refusal of the batch: the scanner keeps it and retries")

            // A refusal of the batch's content names the batch: the scanner gives up that one only.
            let futureBatch = Readings.batch([Readings.wifi()], revision: on.revision + 5)
            let future = try await client.upload(futureBatch)
            #expect(future.status == .unprocessableContent)
            #expect(try errorBody(future).field == "switchRevision")
            #expect(try errorBody(future).batchID == futureBatch.batchID)

            let offBatch = Readings.batch([Readings.wifi()], revision: 1)
            let offRevision = try await client.upload(offBatch)
            #expect(offRevision.status == .unprocessableContent)
            #expect(try errorBody(offRevision).field == "switchRevision")
            #expect(try errorBody(offRevision).batchID == offBatch.batchID)

            var invalid = Readings.batch([Readings.wifi()], revision: on.revision)
            invalid.measurements = []
            let empty = try await client.upload(invalid)
            #expect(empty.status == .unprocessableContent)
            #expect(try errorBody(empty).batchID == invalid.batchID)

            #expect(try await StoredCounts(database) == before)
        }
    }

    @Test func surveyOfADeletedLocationIsAConflict() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            #expect(try await client.execute(uri: "/v1/locations/\(spot.location.id)", method: .delete).status == .noContent)

            // The switch no longer points at the deleted location.
            let now = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            #expect(now.revision == on.revision + 1 && !now.scanning && now.locationID == nil && now.roomID == nil)

            let before = try await StoredCounts(database)
            let lateBatch = Readings.batch([Readings.wifi()], revision: on.revision)
            let late = try await client.upload(lateBatch)
            #expect(late.status == .conflict)
            #expect(try errorBody(late).batchID == lateBatch.batchID)
            #expect(try await StoredCounts(database) == before)
        }
    }
}
