import Foundation
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The JSON switchd retains for scanners, tags and receivers, and where events go.
@Suite("MQTT messages")
struct MQTTMessageTests {
    let topics = MQTTTopics(prefix: "floorscan", discoveryPrefix: "homeassistant")

    static func json(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONCoding.encoder().encode(value)) as? [String: Any])
    }

    /// Metres to the centimetre, degrees to seven places, and Home Assistant's own attribute
    /// names for the map: `latitude`, `longitude`, `gps_accuracy`.
    @Test func aPositionIsRoundedAndCarriesHomeAssistantsMapAttributes() throws {
        let new = NewPosition(
            scannerID: try ScannerID("pi-lab"), time: Date(timeIntervalSince1970: 1_800_000_000), building: "B", floor: 1, x: 3.141592653589793,
            y: 2.718281828459045, roomID: 4, nearestLocationID: nil, accuracyMetres: 1.2345678901234, method: "wifi-knn"
        )
        var position = Position(id: 9, new)
        position.latitude = 51.511512345678901
        position.longitude = -0.116712345678901
        let json = try Self.json(PositionMessage(position, floorName: "Ground", roomName: "Kitchen"))
        #expect(json["x"] as? Double == 3.14 && json["y"] as? Double == 2.72 && json["accuracy"] as? Double == 1.23)
        #expect(json["latitude"] as? Double == 51.5115123 && json["longitude"] as? Double == -0.1167123)
        #expect(json["gps_accuracy"] as? Int == 2, "whole metres, rounded up")
        position.latitude = nil
        let ungeoreferenced = try Self.json(PositionMessage(position, floorName: "Ground", roomName: "Kitchen"))
        #expect(ungeoreferenced["latitude"] == nil && ungeoreferenced["gps_accuracy"] == nil)
    }

    @Test func aTagPositionNamesItsRoomAndTheTracksBeliefs() throws {
        let position = TagPosition(
            id: 3, tagID: 7, time: Date(timeIntervalSince1970: 1_800_000_000), floorID: 1, x: 10.004, y: 8.996, roomID: 2,
            accuracyMetres: 0.83, method: "fused+kalman", scannersHeard: 3, latitude: 51.5115, longitude: -0.1167
        )
        let beliefs = RoomSmoother.State(belief: [.init(room: 1, probability: 0.2345), .init(room: 2, probability: 0.7655)], room: 2)
        let message = TagPositionMessage(position, tagName: "Bike", floorName: "Ground", roomNames: [1: "Open office", 2: "Meeting room"], beliefs: beliefs)
        #expect(message.room == "Meeting room" && message.name == "Bike")
        #expect(message.roomProbability == 0.766)
        #expect(message.roomProbabilities == ["Open office": 0.235, "Meeting room": 0.766])
        #expect(message.x == 10 && message.y == 9 && message.gpsAccuracy == 1)
        let json = try Self.json(message)
        #expect(json["gps_accuracy"] as? Int == 1 && json["scannersHeard"] as? Int == 3)
        let untracked = TagPositionMessage(position, tagName: "Bike", floorName: nil, roomNames: [:], beliefs: nil)
        #expect(untracked.roomProbability == nil && untracked.roomProbabilities == nil && untracked.room == nil)
    }

    /// A missing tag heard goes with the scanner that heard it and with its tag; a tag's
    /// presence event with its tag only.
    @Test func aMissingTagHeardGoesToTheScannerAndTheTag() throws {
        let heard = PresenceEvent(
            id: 1, scannerID: try ScannerID("fixed-1"), kind: .missingTagHeard, place: nil, floor: 1, roomID: nil, time: Date(), positionID: nil, tagID: 7
        )
        #expect(topics.events(of: heard) == ["floorscan/scanners/fixed-1/events", "floorscan/tags/7/events"])
        let entered = PresenceEvent(id: 2, scannerID: nil, kind: .entered, place: .room, floor: 1, roomID: 2, time: Date(), positionID: 3, tagID: 7)
        #expect(topics.events(of: entered) == ["floorscan/tags/7/events"])
    }

    /// A scanner going offline or coming back is published on its events topic (docs/fleet-health.md).
    @Test func aScannerOfflineGoesToTheScanner() throws {
        for kind in [PresenceEventKind.scannerOffline, .scannerOnline] {
            let event = PresenceEvent(id: 1, scannerID: try ScannerID("pi-1"), kind: kind, place: nil, floor: nil, roomID: nil, time: Date(), positionID: nil)
            #expect(topics.events(of: event) == ["floorscan/scanners/pi-1/events"])
        }
    }

    /// Rates count what was read in the last minute, scaled up while switchd has watched for
    /// less (but at least 10 s); nothing before.
    @Test func receiverRatesAreOverTheLastMinute() throws {
        let scanner = try ScannerID("fixed-1")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var rates = ReceiverRates()
        rates.since = start
        func report(_ windows: Int) -> [ScannerID: SightingReport] {
            [scanner: SightingReport(windows: windows, sightings: windows * 3, lastWindowEnd: start)]
        }
        rates.read(report(5), at: start.addingTimeInterval(5))
        #expect(rates.perMinute(of: scanner, at: start.addingTimeInterval(5)) == nil, "watched for 5 s only")
        rates.read(report(5), at: start.addingTimeInterval(10))
        let early = try #require(rates.perMinute(of: scanner, at: start.addingTimeInterval(10)))
        #expect(early.windows == 60 && early.sightings == 180)
        for second in stride(from: 20, through: 120, by: 10) {
            rates.read(report(10), at: start.addingTimeInterval(Double(second)))
        }
        let steady = try #require(rates.perMinute(of: scanner, at: start.addingTimeInterval(120)))
        #expect(steady.windows == 60 && steady.sightings == 180)
        let silent = try #require(rates.perMinute(of: scanner, at: start.addingTimeInterval(200)))
        #expect(silent.windows == 0)
        #expect(rates.perMinute(of: try ScannerID("other"), at: start.addingTimeInterval(120))?.windows == 0)
    }
}
