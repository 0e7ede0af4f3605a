import Foundation
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

@Suite("The path-loss exponent fitted per floor")
struct PathLossExponentTests {
    static let floor = Floor(id: 1, building: "main", name: "Ground", level: 0)
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

    static func beacon(_ minor: UInt16, x: Double, y: Double, power: Int) -> Beacon {
        Beacon(id: Int64(minor), uuid: uuid, major: 1, minor: minor, floorID: 1, x: x, y: y, z: 1.2, measuredPower: power)
    }

    /// Locations hearing each beacon exactly as a log-distance model with `exponent` says.
    static func locations(hearing beacons: [Beacon], exponent: Double, at spots: [(Double, Double)]) -> [RadioMapLocation] {
        spots.enumerated().map { index, spot in
            let emitters = beacons.map { beacon in
                let distance = hypot(spot.0 - beacon.x, spot.1 - beacon.y)
                return EmitterFingerprint(
                    emitter: .beacon(beacon.beaconID), mean: Double(beacon.measuredPower) - 10 * exponent * log10(distance),
                    spread: 3, count: 5
                )
            }
            return RadioMapLocation(locationID: Int64(index + 1), floorID: 1, roomID: 1, x: spot.0, y: spot.1, emitters: emitters)
        }
    }

    @Test func beaconsOfDifferentPowerShareOneFit() throws {
        let beacons = [Self.beacon(1, x: 0, y: 0, power: -59), Self.beacon(2, x: 20, y: 0, power: -72)]
        let spots = [(2.0, 1.0), (5.0, 3.0), (9.0, 2.0), (14.0, 6.0)]
        let fitted = try #require(RadioMapBuilder.pathLossExponent(
            of: Self.floor, beacons: beacons, locations: Self.locations(hearing: beacons, exponent: 2.7, at: spots)
        ))
        #expect(abs(fitted - 2.7) < 0.01)
    }

    @Test func tooLittleSurveyGivesNone() {
        let beacons = [Self.beacon(1, x: 0, y: 0, power: -59)]
        let few = Self.locations(hearing: beacons, exponent: 2.7, at: [(2, 1), (5, 3), (9, 2)])
        #expect(RadioMapBuilder.pathLossExponent(of: Self.floor, beacons: beacons, locations: few) == nil)
        #expect(RadioMapBuilder.pathLossExponent(of: Self.floor, beacons: [], locations: few) == nil)
    }

    @Test func anImplausibleFitGivesNone() {
        // Louder further away: no exponent explains it.
        let beacons = [Self.beacon(1, x: 0, y: 0, power: -59), Self.beacon(2, x: 20, y: 0, power: -59)]
        let backwards = Self.locations(hearing: beacons, exponent: -2, at: [(2, 1), (5, 3), (9, 2), (14, 6)])
        #expect(RadioMapBuilder.pathLossExponent(of: Self.floor, beacons: beacons, locations: backwards) == nil)
    }
}
