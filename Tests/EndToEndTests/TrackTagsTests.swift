import Foundation
import Harness
import Positioning
import ScanContract
import Testing

/// Tag tracking with a real switchd process: three simulated fixed scanners (in this process)
/// post what they hear of a tag walking across a room; switchd locates it within the simulation's
/// bound, and the tag, marked missing, raises its event at the first sighting.
@Suite("End to end: tracking a tag from fixed scanners", .serialized)
struct TrackTagsTests {
    /// Mean error the positions stay within, metres: 2 dB of shadowing, three scanners around a
    /// 12 m × 10 m room, 1 s windows of 5 advertisements.
    static let bound = 1.5
    static let windows = 40

    @Test func threeFixedScannersLocateAMovingTagAndAMissingTagIsReported() async throws {
        let folder = try TemporaryFolder("e2e-tags")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder)
        defer { switchd.process.signal(SIGKILL) }
        let api = switchd.adminClient()
        let floor = try await api.createFloor("Ground")
        let room = try await api.createRoom("Bike store", floor: floor)
        _ = try await api.createLocation(in: room, x: 6, y: 5)

        var simulation = SimulatedTagScanners(
            scanners: [
                .init(point: PlanPoint(x: 0, y: 0), height: 2.5), .init(point: PlanPoint(x: 12, y: 0), height: 2.5),
                .init(point: PlanPoint(x: 6, y: 10), height: 2.5),
            ],
            trajectory: .walking([PlanPoint(x: 2, y: 2), PlanPoint(x: 10, y: 2), PlanPoint(x: 10, y: 7), PlanPoint(x: 3, y: 7)], metresPerSecond: 1),
            model: PathLossModel(powerAt1m: -59, exponent: 2, shadowingSigma: 2), seed: 7
        )
        var scanners: [ScannerID] = []
        for (index, scanner) in simulation.scanners.enumerated() {
            let id = try ScannerID("fixed-\(index)")
            scanners.append(id)
            _ = try await api.call("POST", "/v1/scanners", json: NewScanner(id: id), as: ScanContract.Scanner.self)
            _ = try await api.call(
                "PUT", "/v1/scanners/\(id)/placement",
                json: NewScannerPlacement(floorID: floor.id, x: scanner.point.x, y: scanner.point.y, height: scanner.height), as: ScannerPlacement.self
            )
        }
        let identity = TagIdentity.eddystoneUID(namespace: "00112233445566778899", instance: "0000000000b1")
        let tag = try await api.call(
            "POST", "/v1/tags", json: NewTag(name: "Bike", identity: identity, txPower: -59, missing: true), as: ScanContract.Tag.self
        )

        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var errors: [Double] = []
        for index in 0..<Self.windows {
            let (heard, truth) = simulation.window(index)
            let from = start.addingTimeInterval(Double(index)), to = from.addingTimeInterval(1)
            var latest: TagPosition?
            for (scanner, window) in heard.sorted(by: { $0.key < $1.key }) {
                let sighting = try #require(window.sighting(of: identity, from: from, to: to))
                let receipt = try await api.call(
                    "POST", "/v1/sightings", json: SightingBatch(scannerID: scanners[scanner], sightings: [sighting]), as: SightingReceipt.self
                )
                latest = receipt.positions.last ?? latest
            }
            let position = try #require(latest, "window \(index) located")
            #expect(position.scannersHeard == 3 && position.roomID == room.id)
            errors.append(((position.x - truth.x) * (position.x - truth.x) + (position.y - truth.y) * (position.y - truth.y)).squareRoot())
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean <= Self.bound, "mean error \(mean) m over \(errors.count) windows")

        let events = try await api.call("GET", "/v1/tags/\(tag.id)/events", as: Page<TagEvent>.self).items
        #expect(events.map(\.kind) == [.missingTagHeard], "one event, at the first sighting")
        #expect(events.first?.time == start.addingTimeInterval(1))
        let latest = try await api.call("GET", "/v1/tags/\(tag.id)/positions/latest", as: TagPosition.self)
        #expect(latest.time == start.addingTimeInterval(Double(Self.windows)))
        let lastSeen = try await api.call("GET", "/v1/tags/\(tag.id)/sightings?limit=3", as: [StoredSighting].self)
        #expect(Set(lastSeen.map(\.scannerID)) == Set(scanners))
    }
}
