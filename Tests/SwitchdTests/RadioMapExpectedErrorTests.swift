import Foundation
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `GET /v1/radiomap` on a real SQLite file carries each surveyed location's expected error.
@Suite struct RadioMapExpectedErrorTests {
    @Test func surveyedLocationsCarryTheirExpectedErrorAndOthersNone() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let world = try await PositioningWorld.make(client)
                // A (0, 0) and B (3, 4), both on the ground floor, hear the access point differently.
                for (location, rssi) in [(world.a, -50), (world.b, -80)] {
                    let survey = try await client.startSurvey(at: location.id)
                    _ = try await client.uploadNew(Readings.batch(
                        [Readings.wifi(scan: 0, rssi: rssi), Readings.wifi(scan: 1, rssi: rssi - 2)], revision: survey.revision))
                }
                let response = try await client.get("/v1/radiomap")
                #expect(response.status == .ok)
                let json = Data(response.body.readableBytesView)
                let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
                let locations = try #require(object["locations"] as? [[String: Any]])
                let fieldOf = Dictionary(uniqueKeysWithValues: locations.map { (($0["locationID"] as? NSNumber)?.int64Value ?? -1, $0["expectedError"]) })
                #expect(fieldOf.keys.sorted() == [world.a, world.b, world.c, world.d, world.e].map(\.id))
                #expect(fieldOf.filter { $0.value != nil }.keys.sorted() == [world.a.id, world.b.id], "unsurveyed locations have none")

                // Without A only B is left to find A's scans at, and the other way round: 5 m off.
                let map = try JSONCoding.decoder().decode(RadioMap.self, from: json)
                for location in map.locations.prefix(2) {
                    let expected = try #require(location.expectedError)
                    #expect(expected.metres == 5 && expected.quantile == 0.68 && expected.samples == 2)
                }
            }
        }
    }
}
