import Foundation
import HummingbirdTesting
import ScanContract
@testable import switchd

/// Fixed scanners at the corners of a 10 m square on the ground floor of ``PositioningWorld``
/// (2.5 m up, exponent 2), and a tag 1 m up heard exactly as the log-distance model says.
enum TagWorld {
    static let corners = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    static let tagUUID = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let tagBeacon = BeaconID(uuid: tagUUID, major: 7, minor: 1)
    static let tagIdentity = TagIdentity.iBeacon(tagBeacon)

    static func scannerID(_ index: Int) -> ScannerID {
        try! ScannerID("fixed-\(index)")
    }

    /// Registers and places the four scanners.
    static func placeScanners(_ client: some TestClientProtocol, floorID: Int64) async throws {
        for (index, corner) in corners.enumerated() {
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: scannerID(index)), as: ScanContract.Scanner.self)
            _ = try await client.expect(
                .ok, .put, "/v1/scanners/\(scannerID(index))/placement",
                json: NewScannerPlacement(floorID: floorID, x: corner.0, y: corner.1, height: 2.5), as: ScannerPlacement.self
            )
        }
    }

    /// What scanner `index` hears of a tag of power `txPower` at (x, y), `bias` dB off.
    static func rssi(_ index: Int, tagAt x: Double, _ y: Double, txPower: Double = -59, bias: Double = 0) -> Double {
        let corner = corners[index]
        let d = (pow(corner.0 - x, 2) + pow(corner.1 - y, 2) + pow(2.5 - 1.0, 2)).squareRoot()
        return txPower - 20 * log10(d) + bias
    }

    static func sighting(_ identity: TagIdentity = tagIdentity, rssi: Double, at second: TimeInterval) -> Sighting {
        Sighting(
            identity: identity, windowStart: Readings.start.addingTimeInterval(second - 1), windowEnd: Readings.start.addingTimeInterval(second),
            count: 5, medianRSSI: rssi, maxRSSI: Int(rssi) + 2
        )
    }

    /// Every scanner reports the tag at (x, y) for the window ending at `second`; returns the last receipt.
    @discardableResult
    static func report(_ client: some TestClientProtocol, tagAt x: Double, _ y: Double, at second: TimeInterval) async throws -> SightingReceipt {
        var receipt: SightingReceipt?
        for index in corners.indices {
            let batch = SightingBatch(scannerID: scannerID(index), sightings: [sighting(rssi: rssi(index, tagAt: x, y), at: second)])
            receipt = try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self)
        }
        return receipt!
    }
}
