import Foundation
import HummingbirdTesting
import ScanContract
@testable import switchd
@testable import SwitchdStore

/// A floor with one room and one location, made through the API.
struct SurveySpot {
    var floor: Floor
    var room: Room
    var location: Location

    static func make(_ client: some TestClientProtocol, name: String = "Lab") async throws -> SurveySpot {
        let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground \(name)"), as: Floor.self)
        let room = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: floor.id, name: name), as: Room.self)
        let location = try await client.expect(
            .created, .post, "/v1/locations", json: NewLocation(roomID: room.id, x: 2.5, y: 3), as: Location.self
        )
        return SurveySpot(floor: floor, room: room, location: location)
    }
}

extension TestClientProtocol {
    /// PATCHes a scanner's switch and returns the new state (200 expected).
    func patchSwitch(_ patch: SwitchPatch, scanner: ScannerID = .default) async throws -> ScanSwitch {
        try await expect(.ok, .patch, "/v1/scanners/\(scanner)/switch", json: patch, as: ScanSwitch.self)
    }

    /// Turns the switch on to survey `locationID`.
    func startSurvey(at locationID: Int64, scanner: ScannerID = .default, stopAfter: StopCondition? = nil) async throws -> ScanSwitch {
        try await patchSwitch(SwitchPatch(
            scanning: true, mode: .survey, locationID: .set(locationID), stopAfter: .set(stopAfter)
        ), scanner: scanner)
    }

    func upload(_ batch: MeasurementBatch) async throws -> TestResponse {
        try await send(.post, "/v1/measurements", json: batch)
    }

    /// Uploads and expects 201 with a receipt.
    func uploadNew(_ batch: MeasurementBatch) async throws -> BatchReceipt {
        try await expect(.created, .post, "/v1/measurements", json: batch, as: BatchReceipt.self)
    }
}

enum Readings {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let beaconUUID = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

    static func wifi(scan: Int = 0, rssi: Int = -60, at offset: TimeInterval = 0) -> ScanContract.Measurement {
        ScanContract.Measurement(
            time: start.addingTimeInterval(offset), rssi: rssi, scan: scan,
            observation: .wifi(WiFiObservation(bssid: BSSID(rawValue: 0x02_00_00_00_01_00), ssid: "floorscan-lab", frequencyMHz: 2412))
        )
    }

    static func ble(scan: Int = 0, rssi: Int = -70, at offset: TimeInterval = 0) -> ScanContract.Measurement {
        ScanContract.Measurement(
            time: start.addingTimeInterval(offset), rssi: rssi, scan: scan,
            observation: .ble(BLEObservation(
                address: BLEAddress(rawValue: 0xC0_FF_EE_00_00_01), beacon: BeaconID(uuid: beaconUUID, major: 1, minor: 2), txPower: -59
            ))
        )
    }

    static func batch(_ measurements: [ScanContract.Measurement], revision: Int, scanner: ScannerID = .default) -> MeasurementBatch {
        MeasurementBatch(batchID: UUID(), scannerID: scanner, switchRevision: revision, measurements: measurements)
    }
}
