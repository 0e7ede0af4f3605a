import Clocks
import Foundation
import Positioning
import ScanContract
import DaemonSupport
import Testing
@testable import scannerd

/// `scannerd run --listen`: one BLE loop (``BLEFanOut``) feeds the scan session and the
/// listening role at once, and the role forwards only the tags switchd pushed with the switch.
@Suite("Listening role", .timeLimit(.minutes(2)))
struct ListeningRoleTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A BLE source playing what the test gives it.
    struct ScriptedBLE: BLEScanner {
        let readings: AsyncThrowingStream<[RadioReading], any Error>
        func advertisements() -> AsyncThrowingStream<[RadioReading], any Error> { readings }
    }

    static func reading(minor: UInt16, rssi: Int, at seconds: Double) -> RadioReading {
        let observation = BLEObservation(
            address: BLEAddress(rawValue: 0x02_00_00_00_00_00 | UInt64(minor)),
            beacon: BeaconID(uuid: SimulatedFloor.demoBeaconUUID, major: 2, minor: minor), txPower: -59
        )
        return RadioReading(observation: .ble(observation), rssi: rssi, time: start.addingTimeInterval(seconds))
    }

    @Test func theSharedLoopFeedsBothRolesAndEndsThemWithItsRadio() async throws {
        let (readings, radio) = AsyncThrowingStream.makeStream(of: [RadioReading].self)
        let fanOut = BLEFanOut(source: ScriptedBLE(readings: readings), logger: quietLogger)
        var session = fanOut.advertisements().makeAsyncIterator()
        var listening = fanOut.hearings().makeAsyncIterator()
        let group = DaemonServiceGroup(services: [fanOut], signals: [], logger: quietLogger)
        let running = Task { try await group.run() }

        let heard = [Self.reading(minor: 1, rssi: -60, at: 0.1), Self.reading(minor: 2, rssi: -70, at: 0.1)]
        radio.yield(heard)
        #expect(try await session.next() == heard)
        #expect(try await listening.next() == heard.compactMap(TrackHearing.init))

        struct RadioGone: Error {}
        radio.finish(throwing: RadioGone())
        await #expect(throws: RadioGone.self) { try await session.next() }
        await #expect(throws: RadioGone.self) { try await listening.next() }
        var late = fanOut.advertisements().makeAsyncIterator()
        await #expect(throws: RadioGone.self, "a session started after the radio failed scans Wi-Fi only") { try await late.next() }

        // The loop's end is not scannerd's: the service waits for the shutdown.
        group.triggerGracefulShutdown()
        try await running.value
    }

    /// The simulated radio on a test clock with two tags standing by the scanner: while the
    /// switch watches nothing, nothing is posted though both are heard; once it watches one,
    /// that one's windows go out and the other's never do, while the scan session hears all.
    @Test func onlyTheTagsTheSwitchWatchesAreForwardedWhileTheSessionHearsEverything() async throws {
        let watched = SimulatedFloor.MovingTag.demo(walking: .standing(PlanPoint(x: 21, y: 10)), minor: 1)
        let settings = SimulationSettings(
            trajectory: .standing(PlanPoint(x: 20, y: 10)), seed: 5, followSurvey: false,
            tagTrajectories: [.standing(PlanPoint(x: 21, y: 10)), .standing(PlanPoint(x: 19, y: 10))]
        )
        let clock = TestClock()
        let wallClock = clock.wallClock(from: Self.start)
        let radio = SimulatedRadio(
            floor: settings.floor, settings: settings, surveyPositions: nil, logger: quietLogger, clock: clock, wallClock: wallClock
        )
        let fanOut = BLEFanOut(source: try #require(radio.ble), logger: quietLogger)
        let session = fanOut.advertisements()
        let client = ScriptedHTTPClient { request, _ in
            let batch = try JSONCoding.decoder().decode(SightingBatch.self, from: request.body ?? Data())
            return HTTPResponse(
                status: 201, body: try JSONCoding.encoder().encode(SightingReceipt(stored: batch.sightings.count, ignored: 0, positions: []))
            )
        }
        var forwarder = TrackForwarder(
            api: SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client), scannerID: testScanner, logger: quietLogger
        )
        forwarder.clock = clock
        forwarder.now = wallClock
        let (lists, push) = AsyncStream.makeStream(of: [TagIdentity].self)
        let role = TrackService(forwarder: forwarder, hearings: fanOut.hearings(), watching: .pushed(lists), waitsForShutdown: true, logger: quietLogger)
        let group = DaemonServiceGroup(services: [fanOut, role], signals: [], logger: quietLogger)
        let running = Task { try await group.run() }

        push.yield([])
        await clock.step(by: .milliseconds(10)) { Self.start.distance(to: wallClock()) >= 3 }
        #expect(await client.requests.isEmpty, "an empty list forwards nothing")

        push.yield([.iBeacon(watched.ble.beacon)])
        await clock.step(by: .milliseconds(10)) { await client.requests.count >= 3 }
        group.triggerGracefulShutdown()
        try await running.value

        let batches = try await client.requests.map { try JSONCoding.decoder().decode(SightingBatch.self, from: $0.body ?? Data()) }
        #expect(await client.requests.allSatisfy { $0.method == .post && $0.url.path == "/v1/sightings" })
        #expect(batches.allSatisfy { $0.sightings.map(\.identity) == [.iBeacon(watched.ble.beacon)] })
        // No window start is checked against the moment of the push: the list reaches the
        // forwarder by a task of its own, so an advertisement stamped just before the push may
        // still be on its way and count (the role filters as advertisements arrive).
        #expect(batches.allSatisfy { $0.sightings.allSatisfy { $0.count >= 1 } })

        var minors: Set<UInt16> = [], beaconsHeard = false
        for try await readings in session {
            for reading in readings {
                guard case .ble(let ble) = reading.observation else { continue }
                if ble.beacon.uuid == SimulatedFloor.demoBeaconUUID, ble.beacon.major == 2 { minors.insert(ble.beacon.minor) } else { beaconsHeard = true }
            }
        }
        #expect(minors == [1, 2] && beaconsHeard, "the scan session heard both tags and the floor's beacons from the same loop")
    }
}
