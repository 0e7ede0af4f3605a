import Clocks
import Foundation
import Positioning
import ScanContract
import Testing
@testable import scannerd

/// The simulated radio on a clock of the test's: an immediate one (every wait returns at once,
/// the clock jumping ahead) where only the readings matter, a test clock where the pace does.
@Suite("Simulated radio", .timeLimit(.minutes(1)))
struct SimulatedRadioTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    func radio(
        seed: UInt64, at point: PlanPoint, floor: SimulatedFloor = .demo(), rate: Double? = 500,
        clock: some Clock<Duration> = ImmediateClock()
    ) -> SimulatedRadio {
        SimulatedRadio(
            floor: floor,
            settings: SimulationSettings(
                trajectory: .standing(point), seed: seed, advertisingRate: rate, wifiScanDuration: .milliseconds(1),
                followSurvey: false
            ),
            surveyPositions: nil, logger: quietLogger, clock: clock, wallClock: impliedWallClock(of: clock, from: Self.start)
        )
    }

    func firstAdvertisements(_ radio: SimulatedRadio, _ count: Int) async throws -> [RadioReading] {
        var readings: [RadioReading] = []
        for try await heard in try #require(radio.ble).advertisements() {
            readings += heard
            if readings.count >= count { break }
        }
        return readings
    }

    func mean(_ values: [Int]) -> Double {
        Double(values.reduce(0, +)) / Double(values.count)
    }

    @Test func rssiFallsWithDistance() {
        let beacon = SimulatedFloor.demo().beacons[0]
        var generator = SeededGenerator(seed: 11)
        func samples(at distance: Double) -> [Int] {
            let receiver = PlanPoint(x: beacon.position.x + distance, y: beacon.position.y)
            return (0..<2_000).compactMap { _ in
                Reception.sample(beacon.pathLoss, from: beacon.position, at: receiver, sensitivity: -127, using: &generator)
            }
        }
        let close = mean(samples(at: 2))
        let far = mean(samples(at: 20))
        // Exponent 2.5: 25 dB weaker at ten times the distance.
        #expect(abs(close - beacon.pathLoss.meanRSSI(atDistance: 2)) < 0.5)
        #expect(abs((close - far) - 25) < 1)
    }

    @Test func aBeaconIsHeardLouderFromCloseBy() async throws {
        let floor = SimulatedFloor.demo()
        let nearFirst = PlanPoint(x: 3, y: 2)
        func meanOfFirstBeacon(from point: PlanPoint) async throws -> Double {
            let readings = try await firstAdvertisements(radio(seed: 5, at: point, rate: 2_000), 400)
            let own = readings.filter { $0.observation == .ble(floor.beacons[0].ble) }.map(\.rssi)
            return own.isEmpty ? -127 : mean(own)
        }
        let close = try await meanOfFirstBeacon(from: nearFirst)
        let far = try await meanOfFirstBeacon(from: PlanPoint(x: 30, y: 15))
        #expect(close > far + 15)
    }

    @Test func theSameSeedGivesTheSameReadings() async throws {
        let spot = PlanPoint(x: 12, y: 8)
        let first = try await firstAdvertisements(radio(seed: 42, at: spot), 60)
        let again = try await firstAdvertisements(radio(seed: 42, at: spot), 60)
        let other = try await firstAdvertisements(radio(seed: 43, at: spot), 60)
        func heard(_ readings: [RadioReading]) -> [String] { readings.map { "\($0.observation) \($0.rssi)" } }
        #expect(heard(first) == heard(again))
        #expect(heard(first) != heard(other))

        let scan = try await radio(seed: 42, at: spot).wifi!.scanWiFi()
        let scanAgain = try await radio(seed: 42, at: spot).wifi!.scanWiFi()
        #expect(heard(scan) == heard(scanAgain))
        #expect(!scan.isEmpty)
    }

    /// The readings of a moving tag heard by a radio started at `started`, from the tag's start
    /// for `seconds`, each as "milliseconds since the tag's start, RSSI".
    func tagReadings(seed: UInt64, startedAt started: Date, tagStart: Date, seconds: Double) async throws -> [String] {
        var floor = SimulatedFloor.demo()
        floor.tags = [.demo(walking: .walking([PlanPoint(x: 2, y: 2), PlanPoint(x: 10, y: 2)], metresPerSecond: 0.5), from: tagStart)]
        let clock = ImmediateClock()
        let subject = SimulatedRadio(
            floor: floor, settings: SimulationSettings(trajectory: .standing(PlanPoint(x: 6, y: 6)), seed: seed, followSurvey: false),
            surveyPositions: nil, logger: quietLogger, clock: clock, wallClock: impliedWallClock(of: clock, from: started)
        )
        var heard: [String] = []
        for try await group in try #require(subject.ble).advertisements() {
            for reading in group where reading.observation == .ble(floor.tags[0].ble) {
                #expect(reading.time >= tagStart, "silent before its start")
                heard.append("\(Int((reading.time.timeIntervalSince(tagStart) * 1000).rounded())) \(reading.rssi)")
            }
            if group.contains(where: { $0.time >= tagStart.addingTimeInterval(seconds) }) { break }
        }
        return heard.filter { Double($0.split(separator: " ")[0])! < seconds * 1000 }
    }

    @Test func aMovingTagIsHeardTheSameWheneverTheReceiverStarted() async throws {
        let tagStart = Self.start.addingTimeInterval(2)
        let early = try await tagReadings(seed: 7, startedAt: Self.start, tagStart: tagStart, seconds: 3)
        let late = try await tagReadings(seed: 7, startedAt: Self.start.addingTimeInterval(1.37), tagStart: tagStart, seconds: 3)
        #expect(early.count == 15, "5 advertisements a second: \(early)")
        #expect(early == late)
        let otherSeed = try await tagReadings(seed: 8, startedAt: Self.start, tagStart: tagStart, seconds: 3)
        #expect(otherSeed.map { $0.split(separator: " ")[0] } == early.map { $0.split(separator: " ")[0] }, "the same times")
        #expect(otherSeed != early, "other noise")
    }

    @Test func radiosBelowSensitivityAreNotReported() async throws {
        let model = PathLossModel(powerAt1m: -59, exponent: 2.5, shadowingSigma: 2)
        let uuid = UUID()
        let near = SimulatedFloor.Beacon(
            ble: BLEObservation(address: BLEAddress(rawValue: 1), beacon: BeaconID(uuid: uuid, major: 1, minor: 1), txPower: -59),
            position: PlanPoint(x: 1, y: 0), pathLoss: model, advertisingRate: 10
        )
        var far = near
        far.ble = BLEObservation(address: BLEAddress(rawValue: 2), beacon: BeaconID(uuid: uuid, major: 1, minor: 2), txPower: -59)
        far.position = PlanPoint(x: 60, y: 0) // mean about -103 dBm
        let wifiModel = PathLossModel(powerAt1m: -38, exponent: 3, shadowingSigma: 2)
        let nearAP = SimulatedFloor.AccessPoint(
            wifi: WiFiObservation(bssid: BSSID(rawValue: 10), ssid: "near", frequencyMHz: 2412), position: PlanPoint(x: 2, y: 0), pathLoss: wifiModel
        )
        var farAP = nearAP
        farAP.wifi = WiFiObservation(bssid: BSSID(rawValue: 11), ssid: "far", frequencyMHz: 5180)
        farAP.position = PlanPoint(x: 200, y: 0) // mean about -107 dBm
        let floor = SimulatedFloor(accessPoints: [nearAP, farAP], beacons: [near, far], sensitivity: -80)
        let subject = radio(seed: 3, at: PlanPoint(x: 0, y: 0), floor: floor, rate: 1_000)

        let readings = try await firstAdvertisements(subject, 200)
        #expect(readings.allSatisfy { $0.observation == .ble(near.ble) })
        #expect(readings.allSatisfy { $0.rssi >= floor.sensitivity })
        for _ in 0..<20 {
            let scan = try await subject.wifi!.scanWiFi()
            #expect(scan.map(\.observation) == [.wifi(nearAP.wifi)])
        }
    }

    @Test func advertisementsArePacedAtTheAdvertisingRate() async throws {
        var floor = SimulatedFloor.demo()
        floor.beacons = [floor.beacons[0]]
        let clock = ImmediateClock()
        let subject = radio(seed: 1, at: PlanPoint(x: 2, y: 2), floor: floor, rate: 100, clock: clock)
        let start = clock.now
        let readings = try await firstAdvertisements(subject, 30)
        #expect(readings.count == 30)
        // The first advertisement is due at once, then one every 10 ms of the radio's clock, and
        // stamped with exactly that schedule.
        #expect(start.duration(to: clock.now) >= .milliseconds(290))
        #expect(readings.first?.time == Self.start)
        let gaps = zip(readings.dropFirst(), readings).map { later, earlier in later.time.timeIntervalSince(earlier.time) }
        #expect(gaps.allSatisfy { abs($0 - 0.01) < 1e-6 }, "stamped 10 ms apart: \(gaps)")
    }

    @Test func aWiFiScanTakesItsTime() async throws {
        let clock = TestClock()
        let subject = SimulatedRadio(
            floor: .demo(), settings: SimulationSettings(seed: 1, wifiScanDuration: .milliseconds(120), followSurvey: false),
            surveyPositions: nil, logger: quietLogger, clock: clock, wallClock: clock.wallClock(from: Self.start)
        )
        let wifi = try #require(subject.wifi)
        let scanning = Task { try await wifi.scanWiFi() }
        await clock.sleeper()
        await clock.advance(by: .milliseconds(119))
        await #expect(throws: SuspensionError.self, "still scanning after 119 ms") { try await clock.checkSuspension() }
        await clock.advance(by: .milliseconds(1))
        let scan = try await scanning.value
        #expect(!scan.isEmpty)
        #expect(scan.allSatisfy { $0.observation.kind == .wifi && $0.rssi >= SimulatedFloor.demo().sensitivity })
        #expect(scan.allSatisfy { $0.time == Self.start.addingTimeInterval(0.12) }, "stamped when the scan ends")
    }

    @Test func followingTheSurveyStandsAtTheSwitchLocation() async throws {
        let asked = LockedList<Int64>()
        let positions = SurveyPositions { id in
            asked.append(id)
            return PlanPoint(x: 3, y: 4)
        }
        let subject = SimulatedRadio(
            floor: .demo(), settings: SimulationSettings(trajectory: .standing(PlanPoint(x: 30, y: 15)), seed: 1),
            surveyPositions: positions, logger: quietLogger
        )
        var survey = ScanSwitch(scannerID: testScanner, scanning: true, mode: .survey, locationID: 9, storeData: true, changedAt: Date())
        await subject.prepare(for: survey)
        #expect(await subject.air.position() == PlanPoint(x: 3, y: 4))
        await subject.prepare(for: survey)
        #expect(asked.items == [9], "a location is fetched once")
        survey.locationID = nil
        await subject.prepare(for: survey)
        #expect(await subject.air.position() == PlanPoint(x: 30, y: 15), "without a location, back on the trajectory")
    }
}

/// A list appended to from concurrent code.
final class LockedList<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Item] = []

    func append(_ item: Item) { lock.withLock { storage.append(item) } }
    var items: [Item] { lock.withLock { storage } }
}
