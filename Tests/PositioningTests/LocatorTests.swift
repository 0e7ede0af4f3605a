import Foundation
@testable import Positioning
import ScanContract
import Testing

/// The on-device pipeline over a radio map surveyed on the simulated demo floor (40 m × 20 m,
/// six access points, four beacons in the corners), with noiseless readings so that the
/// expectations are exact enough to fail when a stage goes wrong.
@Suite struct LocatorTests {
    static let floor = SimulatedFloor.demo()
    static let floorID: Int64 = 3
    static func roomOfX(_ x: Double) -> Int64 { x < 20 ? 10 : 11 }

    /// What a scanner at `point` hears: every access point and beacon at its mean RSSI.
    static func heard(at point: PlanPoint) -> (wifi: [Emitter: Double], ble: [Emitter: Double]) {
        var wifi: [Emitter: Double] = [:], ble: [Emitter: Double] = [:]
        for ap in floor.accessPoints {
            wifi[.accessPoint(ap.wifi.bssid)] = ap.pathLoss.meanRSSI(atDistance: ap.position.distance(to: point)).rounded()
        }
        for beacon in floor.beacons {
            // The beacon hangs 1.2 m above the scanner's height difference: ranging in 3-D.
            let distance = (pow(beacon.position.distance(to: point), 2) + 1.2 * 1.2).squareRoot()
            ble[.beacon(beacon.ble.beacon)] = beacon.pathLoss.meanRSSI(atDistance: distance)
        }
        return (wifi, ble)
    }

    static func map(surveyed: Bool = true, beacons: Bool = true) -> RadioMap {
        var locations: [RadioMapLocation] = []
        var id: Int64 = 100
        if surveyed {
            for x in stride(from: 2.0, through: 38.0, by: 4) {
                for y in stride(from: 2.0, through: 18.0, by: 4) {
                    let (wifi, ble) = heard(at: PlanPoint(x: x, y: y))
                    let scan = wifi.merging(ble) { a, _ in a }
                    locations.append(RadioMapLocation(
                        locationID: id, floorID: floorID, roomID: roomOfX(x), x: x, y: y,
                        emitters: scan.map { EmitterFingerprint(emitter: $0.key, mean: $0.value, spread: 2, count: 3) },
                        scans: [scan, scan, scan]
                    ))
                    id += 1
                }
            }
        }
        let registered = beacons ? floor.beacons.enumerated().map { index, beacon in
            Beacon(
                id: Int64(index + 1), uuid: beacon.ble.beacon.uuid, major: beacon.ble.beacon.major, minor: beacon.ble.beacon.minor,
                floorID: floorID, x: beacon.position.x, y: beacon.position.y, z: 1.2, measuredPower: beacon.ble.txPower
            )
        } : []
        return RadioMap(
            floors: [RadioMapFloor(floorID: floorID, building: "lab", level: 0, pathLossExponent: 2.5)],
            beacons: registered, locations: locations
        )
    }

    func locate(_ locator: inout Locator, at point: PlanPoint, time: Double, wifiOnly: Bool = false) -> LocatedPosition? {
        let (wifi, ble) = Self.heard(at: point)
        return locator.locate(wifi: wifi, ble: wifiOnly ? [:] : ble.mapValues { [$0, $0] }, at: Date(timeIntervalSince1970: time))
    }

    @Test func bothRadiosAreUsedAndThePositionIsCloseToTheTruth() throws {
        var locator = Locator(map: Self.map())
        let truth = PlanPoint(x: 23, y: 9)
        let position = try #require(locate(&locator, at: truth, time: 0))
        #expect(hypot(position.x - truth.x, position.y - truth.y) < 2.5)
        #expect(position.floorID == Self.floorID && position.building == "lab")
        #expect(position.roomID == 11)
        #expect(position.method == "ble-fingerprint+ble-trilateration+wifi-knn+kalman")
        #expect(position.accuracyMetres >= 1)
        let nearest = try #require(position.nearestLocationID)
        #expect((100...144).contains(nearest))
        // Every beacon is reported with its proximity; the nearest corner beacon (39, 1) comes first.
        #expect(position.beacons.count == 4)
        #expect(position.beacons.allSatisfy { $0.proximity == .far && $0.samples == 2 })
        #expect(position.beacons.first?.minor == 2)
    }

    @Test func proximityUsesTheRegistryElseTheAdvertisedPower() throws {
        let locator = Locator(map: Self.map(surveyed: false))
        let registered = Emitter.beacon(Self.floor.beacons[0].ble.beacon)
        let stranger = Emitter.beacon(BeaconID(uuid: UUID(), major: 9, minor: 9))
        let silent = Emitter.beacon(BeaconID(uuid: UUID(), major: 9, minor: 10))
        func proximity(_ emitter: Emitter, _ rssi: Double) -> BeaconSighting? {
            locator.sightings([emitter: rssi], counts: [emitter: 1], advertisedPower: [stranger: -59]).first
        }
        // Registered: measured power −59 dBm and the floor's exponent 2.5.
        #expect(proximity(registered, -50)?.proximity == .immediate) // 0.44 m
        #expect(proximity(registered, -65)?.proximity == .near) // 1.74 m
        let far = try #require(proximity(registered, -80))
        #expect(far.proximity == .far)
        #expect(abs((far.distanceMetres ?? 0) - 6.92) < 0.01)
        // Unknown to the registry: its advertised power with the default exponent 2.
        #expect(abs((proximity(stranger, -65)?.distanceMetres ?? 0) - 2.0) < 0.01)
        #expect(proximity(silent, -65)?.proximity == .unknown)
        #expect(proximity(silent, -65)?.distanceMetres == nil)
        // Wi-Fi is never a sighting.
        #expect(locator.sightings([.accessPoint(BSSID(rawValue: 5)): -40], counts: [:], advertisedPower: [:]).isEmpty)
    }

    @Test func registeredBeaconsAloneAreEnough() throws {
        var locator = Locator(map: Self.map(surveyed: false))
        #expect(locator.canLocate)
        let truth = PlanPoint(x: 12, y: 14)
        let position = try #require(locate(&locator, at: truth, time: 0))
        #expect(hypot(position.x - truth.x, position.y - truth.y) < 1.5)
        #expect(position.method == "ble-trilateration+kalman")
        #expect(position.nearestLocationID == nil && position.roomID == nil)
    }

    @Test func anEmptyMapOrNothingHeardGivesNoPosition() {
        var empty = Locator(map: RadioMap())
        #expect(!empty.canLocate)
        #expect(empty.locate(wifi: [.accessPoint(BSSID(rawValue: 1)): -50], ble: [:], at: Date()) == nil)
        var locator = Locator(map: Self.map())
        #expect(locator.locate(wifi: [:], ble: [:], at: Date()) == nil)
        // A radio the survey never heard matches nothing.
        #expect(locator.locate(wifi: [.accessPoint(BSSID(rawValue: 0xAB)): -40], ble: [:], at: Date()) == nil)
    }

    @Test func theRoomDoesNotFlipFlopAtABoundary() throws {
        var locator = Locator(map: Self.map(beacons: false))
        var rooms: [Int64?] = []
        // Standing still in room 10, then positions that straddle the boundary at x = 20.
        for step in 0..<6 { rooms.append(locate(&locator, at: PlanPoint(x: 14, y: 10), time: Double(step), wifiOnly: true)?.roomID) }
        for step in 6..<14 {
            let x = step % 2 == 0 ? 17.5 : 22.5
            rooms.append(locate(&locator, at: PlanPoint(x: x, y: 10), time: Double(step), wifiOnly: true)?.roomID)
        }
        #expect(rooms.allSatisfy { $0 == 10 }, "rooms reported: \(rooms)")
        // A real move into room 11 is followed.
        var last: Int64?
        for step in 14..<40 { last = locate(&locator, at: PlanPoint(x: 34, y: 10), time: Double(step), wifiOnly: true)?.roomID }
        #expect(last == 11)
    }

    /// A booth (room 12) drawn at 22–26 m holds no surveyed location: the nearest location's
    /// room would be 11; the outline gives 12. Outside it, the nearest location's room as before.
    /// A map from before outlines (no `rooms`) reads as it did and encodes without the key.
    @Test func theRoomFollowsAnOutlineWhereTheMapHasOne() throws {
        var map = Self.map(beacons: false)
        map.rooms = [RadioMapRoom(roomID: 12, floorID: Self.floorID, outline: [[22, 6], [26, 6], [26, 12], [22, 12]])]
        var inBooth = Locator(map: map)
        var last: Int64?
        for step in 0..<30 { last = locate(&inBooth, at: PlanPoint(x: 24, y: 9), time: Double(step), wifiOnly: true)?.roomID }
        #expect(last == 12)
        var plain = Locator(map: Self.map(beacons: false))
        for step in 0..<30 { last = locate(&plain, at: PlanPoint(x: 24, y: 9), time: Double(step), wifiOnly: true)?.roomID }
        #expect(last == 11)
        var outside = Locator(map: map)
        for step in 0..<30 { last = locate(&outside, at: PlanPoint(x: 34, y: 10), time: Double(step), wifiOnly: true)?.roomID }
        #expect(last == 11)

        let old = try JSONEncoder().encode(Self.map(beacons: false))
        #expect(!String(decoding: old, as: UTF8.self).contains("\"rooms\""))
        #expect(try JSONDecoder().decode(RadioMap.self, from: old).rooms == nil)
        #expect(try JSONDecoder().decode(RadioMap.self, from: try JSONEncoder().encode(map)) == map)
    }

    @Test func aFingerprintIsNeverSurerThanHalfItsSurveySpacing() {
        let spots = [0.0, 4, 10].enumerated().map { index, x in
            RadioMapLocation(locationID: Int64(index), floorID: 1, roomID: 1, x: x, y: 0)
        }
        #expect(Locator.halfTypicalSpacing(spots) == 2)
        #expect(Locator.halfTypicalSpacing(Array(spots.prefix(1))) == nil)
    }
}
