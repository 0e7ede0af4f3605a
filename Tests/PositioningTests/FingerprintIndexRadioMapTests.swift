@testable import Positioning
import Testing

@Suite("Fingerprint index from a radio map")
struct FingerprintIndexRadioMapTests {
    @Test func everyWiFiScanBecomesAFingerprintOfItsFloorsBuilding() throws {
        let ap1 = try Emitter("ap:02:00:00:00:00:01")
        let ap2 = try Emitter("ap:02:00:00:00:00:02")
        let beacon = try Emitter("beacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/2")
        let map = RadioMap(
            floors: [
                RadioMapFloor(floorID: 10, building: "North", level: 0),
                RadioMapFloor(floorID: 20, building: "South", level: 1),
            ],
            locations: [
                RadioMapLocation(locationID: 1, floorID: 10, roomID: 1, x: 0, y: 0, scans: [[ap1: -50, beacon: -60], [ap1: -52]]),
                RadioMapLocation(locationID: 2, floorID: 20, roomID: 2, x: 5, y: 5, scans: [[ap2: -45], [beacon: -70]]),
            ]
        )
        let index = FingerprintIndex(radioMap: map)
        #expect(index.count == 3)
        #expect(index.radioCount == 2)
        let fix = try #require(WiFiKNNLocator(radioMap: map).locate([ap2: -47, beacon: -60]))
        #expect(fix.building == "South")
        #expect(fix.estimate.floorID == 20)
        #expect(fix.nearestLocationID == 2)
        #expect(fix.estimate.x == 5)
    }
}
