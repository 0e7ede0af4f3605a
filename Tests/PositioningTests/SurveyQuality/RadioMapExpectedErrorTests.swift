import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("The expected error carried in the radio map")
struct RadioMapExpectedErrorTests {
    static func ap(_ last: UInt64) -> Emitter { .accessPoint(BSSID(rawValue: 0x02_00_00_00_00_00 | last)) }

    /// A at (0, 0) and B at (3, 4) hear one access point differently; C heard only a beacon; D was
    /// never surveyed.
    static let map = RadioMap(
        floors: [RadioMapFloor(floorID: 1, building: "main", level: 0)],
        locations: [
            RadioMapLocation(locationID: 1, floorID: 1, roomID: 1, x: 0, y: 0, scans: [[ap(1): -50], [ap(1): -52]]),
            RadioMapLocation(locationID: 2, floorID: 1, roomID: 1, x: 3, y: 4, scans: [[ap(1): -80], [ap(1): -78]]),
            RadioMapLocation(
                locationID: 3, floorID: 1, roomID: 1, x: 9, y: 9,
                scans: [[.beacon(BeaconID(uuid: UUID(), major: 1, minor: 1)): -60]]),
            RadioMapLocation(locationID: 4, floorID: 1, roomID: 1, x: 5, y: 5),
        ])

    @Test func surveyedLocationsGetOneAndOthersNone() throws {
        let estimated = Self.map.withExpectedErrors()
        // Without A, only B is left to find A's scans at, and the other way round: 5 m off.
        #expect(estimated.locations.map { $0.expectedError?.metres } == [5, 5, nil, nil])
        #expect(estimated.locations[0].expectedError?.samples == 2)
    }

    /// Three walk points a metre apart hear almost the same; one spot 8 m on hears little. Left out
    /// one at a time, a walk point is found at its neighbours along the walk; left out as one walk,
    /// only the spot is left to find it at, which is what a place off the walk would get.
    @Test func aWalksPointsAreLeftOutTogether() throws {
        func map(walkID: Int64?) -> RadioMap {
            RadioMap(
                floors: [RadioMapFloor(floorID: 1, building: "main", level: 0)],
                locations: (0..<3).map { index in
                    RadioMapLocation(
                        locationID: Int64(index + 1), floorID: 1, roomID: 1, x: Double(index), y: 0,
                        scans: [[Self.ap(1): -50 - Double(index)]], walkID: walkID
                    )
                } + [RadioMapLocation(locationID: 4, floorID: 1, roomID: 1, x: 10, y: 0, scans: [[Self.ap(1): -80]])]
            )
        }
        let apart = map(walkID: nil).withExpectedErrors().locations.prefix(3).map { $0.expectedError?.metres ?? .infinity }
        #expect(apart.allSatisfy { $0 < 8 }, "\(apart)")
        let together = map(walkID: 7).withExpectedErrors().locations.prefix(3).map { $0.expectedError?.metres }
        #expect(together == [10, 9, 8])
        let json = try JSONCoding.encoder().encode(map(walkID: 7))
        #expect(try JSONCoding.decoder().decode(RadioMap.self, from: json) == map(walkID: 7))
    }

    @Test func theJSONCarriesItOnlyWhereThereIsOneAndOldMapsStillDecode() throws {
        let estimated = Self.map.withExpectedErrors()
        let json = try JSONCoding.encoder().encode(estimated)
        #expect(try JSONCoding.decoder().decode(RadioMap.self, from: json) == estimated)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let locations = try #require(object["locations"] as? [[String: Any]])
        #expect(locations.map { $0["expectedError"] != nil } == [true, true, false, false])

        // A map as switchd wrote it before the field existed.
        let old = try JSONCoding.encoder().encode(Self.map)
        #expect(!String(decoding: old, as: UTF8.self).contains("expectedError"))
        #expect(try JSONCoding.decoder().decode(RadioMap.self, from: old) == Self.map)
    }

    /// A corridor surveyed every 3 m, four scans per point, two radios at its ends heard with a
    /// repeating jitter: a survey whose own cross-validated choice leaves the standard settings.
    /// The expected error is what scannerd, which locates with the chosen settings, would see.
    @Test func itLocatesWithTheSettingsTheSurveyChoosesAsScannerdDoes() throws {
        let points = 24
        let map = RadioMap(
            floors: [RadioMapFloor(floorID: 1, building: "main", level: 0)],
            locations: (0..<points).map { point in
                let x = Double(point) * 3
                return RadioMapLocation(
                    locationID: Int64(point + 1), floorID: 1, roomID: 1, x: x, y: 0,
                    scans: (0..<4).map { sample in
                        let jitter = Double((point * 7 + sample * 3) % 9) - 4
                        return [Self.ap(1): -35 - 0.6 * x + jitter, Self.ap(2): -35 - 0.6 * (Double(points - 1) * 3 - x) - jitter]
                    })
            })
        let choice = WiFiKNNLocator<Emitter>.SiteChoice(records: FingerprintRecord.wifiSurvey(of: map))
        let chosen = choice.chosen
        try #require(chosen != .standard, "this survey must choose other settings than the standard ones")
        let estimated = map.withExpectedErrors().locations.map(\.expectedError)
        #expect(estimated == map.withExpectedErrors(settings: chosen, representation: choice.chosenRepresentation).locations.map(\.expectedError))
        #expect(estimated != map.withExpectedErrors(settings: .standard).locations.map(\.expectedError))
    }
}
