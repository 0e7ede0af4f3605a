import Foundation
import HummingbirdTesting
import ScanContract
@testable import switchd
@testable import SwitchdStore

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

    /// Registers and places the four scanners, straight in the store.
    static func placeScanners(in database: AppDatabase, floorID: Int64) async throws {
        for (index, corner) in corners.enumerated() {
            _ = try await database.createScanner(NewScanner(id: scannerID(index)), at: Readings.start)
            _ = try await database.placeScanner(scannerID(index), NewScannerPlacement(floorID: floorID, x: corner.0, y: corner.1, height: 2.5))
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

    /// Every scanner reports the tag at (x, y) for the window ending at `second`; returns the
    /// receipts added up: what was stored and ignored, and the positions of the windows closed.
    @discardableResult
    static func report(_ client: some TestClientProtocol, tagAt x: Double, _ y: Double, at second: TimeInterval) async throws -> SightingReceipt {
        var total = SightingReceipt(stored: 0, ignored: 0, positions: [])
        for index in corners.indices {
            let batch = SightingBatch(scannerID: scannerID(index), sightings: [sighting(rssi: rssi(index, tagAt: x, y), at: second)])
            let receipt = try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self)
            total.stored += receipt.stored
            total.ignored += receipt.ignored
            total.positions += receipt.positions
        }
        return total
    }

    /// Closes the tag's window ending at `second` the way fixed scanners do, by one of them
    /// reporting a later window (10 s on, beyond the tracker's horizon); returns the positions
    /// that answer carries: the closed window's.
    static func closeWindow(_ client: some TestClientProtocol, after second: TimeInterval) async throws -> [TagPosition] {
        let batch = SightingBatch(scannerID: scannerID(0), sightings: [sighting(rssi: -80, at: second + 10)])
        return try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self).positions
    }

    /// The tag's stored positions, oldest first, once there are `count` of them: waits for the
    /// windows closed on the clock, which land after the clock moved (ends with the test's time
    /// limit when they never do).
    static func positions(_ client: some TestClientProtocol, of tagID: Int64, count: Int) async throws -> [TagPosition] {
        while true {
            let page = try await client.expect(.ok, get: "/v1/tags/\(tagID)/positions?limit=\(max(count, 1) + 1)", as: Page<TagPosition>.self)
            if page.items.count >= count { return page.items }
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}
