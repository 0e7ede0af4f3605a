import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("BLE trilateration and proximity")
struct BLETrilaterationTests {
    static let model = PathLossModel(powerAt1m: -60, exponent: 2, shadowingSigma: 1)

    static func anchor(_ minor: UInt16, _ x: Double, _ y: Double, floor: Int64 = 1) -> RangingAnchor {
        RangingAnchor(emitter: .beacon(BeaconID(uuid: UUID(), major: 0, minor: minor)), floorID: floor, x: x, y: y, z: 2.5, model: model)
    }

    /// Exact readings at (x, y), the receiver 1.2 m above the floor, anchors at 2.5 m.
    static func readings(_ anchors: [RangingAnchor], at x: Double, _ y: Double) -> [AnchorReading] {
        anchors.map { a in
            let d = (pow(x - a.x, 2) + pow(y - a.y, 2) + pow(1.2 - a.z, 2)).squareRoot()
            return AnchorReading(anchor: a, rssi: a.model.meanRSSI(atDistance: d))
        }
    }

    let square = [anchor(1, 0, 0), anchor(2, 10, 0), anchor(3, 10, 10), anchor(4, 0, 10)]

    @Test func exactLayoutRecoversThePoint() throws {
        let estimate = try #require(BLETrilateration().locate(Self.readings(square, at: 3, 4)))
        #expect(abs(estimate.x - 3) < 0.02)
        #expect(abs(estimate.y - 4) < 0.02)
        #expect(estimate.accuracyMetres < 2)
        #expect(estimate.floorID == 1)
        #expect(estimate.method == "ble-trilateration")
    }

    @Test func twoBeaconsGiveAFiniteAnswerWithALargeRadius() throws {
        let estimate = try #require(BLETrilateration().locate(Self.readings(Array(square.prefix(2)), at: 3, 0)))
        #expect(estimate.x.isFinite && estimate.y.isFinite)
        // The along-line coordinate is resolved; across the line only the prior speaks.
        #expect(abs(estimate.x - 3) < 0.1 && abs(estimate.y) < 0.1)
        #expect(estimate.accuracyMetres > 5)
    }

    @Test func collinearBeaconsGiveAFiniteAnswerWithALargeRadius() throws {
        let line = [Self.anchor(1, 0, 5), Self.anchor(2, 5, 5), Self.anchor(3, 10, 5)]
        let estimate = try #require(BLETrilateration().locate(Self.readings(line, at: 7, 5)))
        #expect(estimate.x.isFinite && estimate.y.isFinite)
        #expect(abs(estimate.x - 7) < 0.5)
        #expect(estimate.accuracyMetres > 5)
    }

    @Test func oneBeaconGivesItsPositionAndTheRangeAsRadius() throws {
        let estimate = try #require(BLETrilateration().locate(Self.readings([square[2]], at: 6, 10)))
        #expect(estimate.x == 10 && estimate.y == 10)
        // Range 4 m (4.2 m in 3-D), widened by one sigma of shadowing: 10^(1/20) ≈ 1.12.
        #expect(estimate.accuracyMetres > 4 && estimate.accuracyMetres < 5)
    }

    @Test func nothingUsableHeardGivesNil() {
        #expect(BLETrilateration().locate([]) == nil)
        #expect(BLETrilateration().locate([AnchorReading(anchor: square[0], rssi: 0), AnchorReading(anchor: square[1], rssi: .nan)]) == nil)
    }

    @Test func onlyTheLoudestFloorsAnchorsAreUsed() throws {
        let upstairs = [Self.anchor(7, 50, 50, floor: 2), Self.anchor(8, 60, 50, floor: 2)]
        var readings = Self.readings(square, at: 3, 4)
        readings += upstairs.map { AnchorReading(anchor: $0, rssi: -95) }
        let estimate = try #require(BLETrilateration().locate(readings))
        #expect(estimate.floorID == 1)
        #expect(abs(estimate.x - 3) < 0.02 && abs(estimate.y - 4) < 0.02)
    }

    @Test func proximityClassesFollowTheModelDistance() {
        // d = 10^((−59 − RSSI) / 20): −50 → 0.35 m, −59 → 1 m, −75 → 6.3 m.
        #expect(BeaconProximity(rssi: -50, measuredPower: -59) == .immediate)
        #expect(BeaconProximity(rssi: -59, measuredPower: -59) == .near)
        #expect(BeaconProximity(rssi: -75, measuredPower: -59) == .far)
        #expect(BeaconProximity(rssi: 0, measuredPower: -59) == .unknown)
        #expect(BeaconProximity(rssi: .nan, measuredPower: -59) == .unknown)
        #expect(BeaconProximity(rssi: -70, measuredPower: 0) == .unknown)
    }
}
