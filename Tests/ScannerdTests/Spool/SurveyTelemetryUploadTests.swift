import Foundation
import Harness
import ScanContract
import Testing
@testable import scannerd

/// A surveying scanner's Eddystone-TLM, from its spool to switchd: the uploader posts the sealed
/// batch's telemetry on the listening role's path (`POST /v1/sightings`) and its measurements to
/// `POST /v1/measurements`, against a real switchd on loopback; the beacon's battery shows in
/// `GET /v1/beacons/{id}`.
@Suite("Survey telemetry reaches switchd", .serialized, .timeLimit(.minutes(2)))
struct SurveyTelemetryUploadTests {
    @Test func aSurveyBatchsTelemetryShowsInTheBeaconsHealth() async throws {
        let folder = try TemporaryFolder("survey-telemetry")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder)
        defer { switchd.process.signal(SIGKILL) }
        let admin = switchd.adminClient()
        let floor = try await admin.createFloor("Ground")
        let room = try await admin.createRoom("Hall", floor: floor)
        let location = try await admin.createLocation(in: room, x: 2, y: 3)
        let id = BeaconID(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 7)
        let beacon = try await admin.createBeacon(NewBeacon(
            uuid: id.uuid, major: id.major, minor: id.minor, floorID: floor.id, x: 1, y: 1, measuredPower: -59
        ))
        let survey = try await admin.patchSwitch(SwitchPatch(
            scanning: true, mode: .survey, roomID: .set(room.id), locationID: .set(location.id), storeData: true
        ))
        let scanner = try ScannerID("default")
        let token = try await switchd.issueScannerToken(name: "survey-telemetry")

        let directory = try TemporaryDirectory()
        let tap = EventTap()
        let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger, tap: tap.record)
        let spool = try Spool(
            directory: directory.file("spool"), settings: Spool.Settings(scannerID: scanner, batchSize: 100, batchAge: .seconds(3600)),
            events: events, logger: quietLogger
        )
        let heardAt = Date(timeIntervalSince1970: 1_795_000_000)
        let reading = RadioReading(
            observation: .ble(BLEObservation(address: BLEAddress(rawValue: 0x0A_0B_0C_0D_0E_0F), beacon: id, txPower: -59)), rssi: -71, time: heardAt
        )
        let report = HeardTelemetry(
            identity: .iBeacon(id), heardAt: heardAt, batteryMillivolts: 2650, temperatureCelsius: 19.5, advertisementCount: 4321, uptimeSeconds: 7200
        )
        await spool.append([reading.measurement(scan: 0, id: UUID())], telemetry: [report], revision: survey.revision)
        try await spool.sealOpenBatch()
        let batchID = try #require(spool.readyBatches().first).batchID

        let uploader = Uploader(
            spool: spool, api: SwitchdAPI(baseURL: switchd.baseURL, client: CurlHTTPClient(), token: SwitchdToken(token)),
            events: events, logger: quietLogger
        )
        let uploading = Task { try await uploader.run() }
        defer { uploading.cancel() }
        await tap.settled(batchID)

        let acked = try EventLogReader(path: directory.file("events.jsonl")).events("acked")
        #expect(acked.first?["stored"] as? Int == 1, "the measurement is stored as ever")
        let shown = try await admin.call("GET", "/v1/beacons/\(beacon.id)", as: Beacon.self)
        let telemetry = try #require(shown.telemetry, "the survey's TLM reached the beacon")
        #expect(telemetry.batteryMillivolts == 2650)
        #expect(telemetry.temperatureCelsius == 19.5)
        #expect(telemetry.advertisementCount == 4321)
        #expect(telemetry.scannerID == scanner)
        #expect(telemetry.reportedAt == heardAt)
        let stored = try await admin.allMeasurements()
        #expect(stored.count == 1)
    }
}
