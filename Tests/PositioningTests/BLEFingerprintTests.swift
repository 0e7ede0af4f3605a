import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("BLE fingerprint and fusion")
struct BLEFingerprintTests {
    static let a = Emitter.beacon(BeaconID(uuid: UUID(), major: 2, minor: 1))
    static let b = Emitter.beacon(BeaconID(uuid: UUID(), major: 2, minor: 2))
    static let ap = try! Emitter("ap:00:11:22:33:44:55")

    static func location(_ id: Int64, floor: Int64 = 1, _ x: Double, _ y: Double, _ ma: Double, _ mb: Double) -> RadioMapLocation {
        RadioMapLocation(
            locationID: id, floorID: floor, roomID: id * 10, x: x, y: y,
            emitters: [
                EmitterFingerprint(emitter: a, mean: ma, spread: 2, count: 10),
                EmitterFingerprint(emitter: b, mean: mb, spread: 2, count: 10),
                EmitterFingerprint(emitter: ap, mean: -40, spread: 1, count: 10),
            ]
        )
    }

    let map = [location(1, 0, 0, -60, -80), location(2, 5, 0, -70, -70), location(3, 10, 0, -80, -60), location(4, floor: 2, 5, 5, -71, -69)]

    @Test func nearestMeansPicksTheMatchingLocation() throws {
        let match = try #require(BLEFingerprint(locations: map, settings: .init(k: 1)).locate([Self.a: -70, Self.b: -70]))
        #expect(match.nearestLocationID == 2 && match.roomID == 20)
        #expect(match.estimate.x == 5 && match.estimate.y == 0 && match.estimate.floorID == 1)
        #expect(match.estimate.accuracyMetres == 1)
    }

    @Test func kNeighboursAreWeightedByInverseDistanceOnOneFloor() throws {
        // Location 4 (floor 2) matches exactly, so the estimate is on floor 2. Without it, RMS
        // distances on floor 1 are 1 dB (location 2), 9 dB (3) and 11 dB (1): weights 1/2, 1/10.
        let match = try #require(BLEFingerprint(locations: map, settings: .init(k: 2)).locate([Self.a: -71, Self.b: -69]))
        #expect(match.estimate.floorID == 2)
        let onFloor1 = try #require(BLEFingerprint(locations: Array(map.prefix(3)), settings: .init(k: 2)).locate([Self.a: -71, Self.b: -69]))
        let w2 = 1 / (1.0 + 1), w3 = 1 / ((pow(9.0, 2) + pow(9.0, 2)) / 2).squareRoot().advanced(by: 1)
        #expect(abs(onFloor1.estimate.x - (w2 * 5 + w3 * 10) / (w2 + w3)) < 1e-9)
    }

    @Test func gaussianScoringAgreesOnAClearMatch() throws {
        let match = try #require(BLEFingerprint(locations: map, settings: .init(k: 1, scoring: .gaussian(extraSpread: 3))).locate([Self.a: -80, Self.b: -61]))
        #expect(match.nearestLocationID == 3)
    }

    @Test func unknownOrEmptyInputGivesNil() {
        #expect(BLEFingerprint(locations: []).locate([Self.a: -60]) == nil)
        #expect(BLEFingerprint(locations: map).locate([Self.ap: -40]) == nil)
        #expect(BLEFingerprint(locations: map).locate([:]) == nil)
    }

    @Test func fusionWeighsByInverseVariance() throws {
        let fused = try #require(PositionFusion().fuse([
            PositionEstimate(floorID: 1, x: 0, y: 0, accuracyMetres: 1, method: "ble-trilateration"),
            PositionEstimate(floorID: 1, x: 10, y: 0, accuracyMetres: 2, method: "ble-fingerprint"),
        ]))
        // Weights 1 and 1/4: x = 2.5 / 1.25 = 2, accuracy 1/√1.25.
        #expect(abs(fused.x - 2) < 1e-12 && fused.y == 0)
        #expect(abs(fused.accuracyMetres - 1 / 1.25.squareRoot()) < 1e-12)
        #expect(fused.method == "fused" && fused.floorID == 1)
    }

    @Test func aFingerprintsFloorBeatsTrilaterationAndFloorsAreNotAveraged() throws {
        let fused = try #require(PositionFusion().fuse([
            PositionEstimate(floorID: 1, x: 0, y: 0, accuracyMetres: 1, method: "ble-trilateration"),
            PositionEstimate(floorID: 2, x: 10, y: 4, accuracyMetres: 5, method: "ble-fingerprint"),
        ]))
        #expect(fused.floorID == 2 && fused.x == 10 && fused.y == 4 && fused.accuracyMetres == 5)
        let byWeight = try #require(PositionFusion().fuse([
            PositionEstimate(floorID: 1, x: 0, y: 0, accuracyMetres: 3, method: "a"),
            PositionEstimate(floorID: 2, x: 10, y: 0, accuracyMetres: 1, method: "b"),
            PositionEstimate(floorID: nil, x: 20, y: 0, accuracyMetres: 1, method: "c"),
        ]))
        #expect(byWeight.floorID == 2 && abs(byWeight.x - 15) < 1e-12)
    }

    @Test func unusableEstimatesAreIgnored() {
        #expect(PositionFusion().fuse([]) == nil)
        #expect(PositionFusion().fuse([
            PositionEstimate(floorID: 1, x: .nan, y: 0, accuracyMetres: 1, method: "a"),
            PositionEstimate(floorID: 1, x: 0, y: 0, accuracyMetres: 0, method: "b"),
        ]) == nil)
    }

    @Test func interpolationReproducesAnExactModel() throws {
        // Means that follow the anchor's model exactly leave no residual: the grid is the model.
        let anchor = RangingAnchor(emitter: Self.a, floorID: 1, x: 0, y: 0, z: 2, model: PathLossModel(powerAt1m: -60, exponent: 2, shadowingSigma: 3))
        let surveyed = [(0.0, 0.0), (4.0, 0.0), (0.0, 4.0), (4.0, 4.0)].enumerated().map { i, p in
            RadioMapLocation(locationID: Int64(i + 1), floorID: 1, roomID: 7, x: p.0, y: p.1, emitters: [
                EmitterFingerprint(emitter: Self.a, mean: anchor.model.meanRSSI(atDistance: (p.0 * p.0 + p.1 * p.1 + 1).squareRoot()), spread: 1, count: 5),
            ])
        }
        let dense = RadioMapInterpolation(step: 1).densify(surveyed, anchors: [Self.a: anchor], height: 1)
        #expect(dense.count == 25)
        let middle = try #require(dense.first { $0.x == 2 && $0.y == 3 })
        #expect(abs((middle.emitters.first?.mean ?? 0) - anchor.model.meanRSSI(atDistance: (4 + 9 + 1.0).squareRoot())) < 1e-9)
        #expect(middle.roomID == 7 && middle.locationID < 0)
    }
}
