import Foundation
import Harness
import Positioning
import ScanContract
import Testing
@testable import scannerd

/// The BLE window holds only the last ``Positioner/Settings/bleWindow`` of advertisements,
/// whether or not the cycle could be positioned.
@Suite("Positioner BLE window")
struct PositionerWindowTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func advertisement(minor: UInt16, at seconds: Double) -> RadioReading {
        let observation = BLEObservation(
            address: BLEAddress(rawValue: 0x02_00_00_00_00_00 | UInt64(minor)),
            beacon: BeaconID(uuid: SimulatedFloor.demoBeaconUUID, major: 1, minor: minor), txPower: -59
        )
        return RadioReading(observation: .ble(observation), rssi: -70, time: start.addingTimeInterval(seconds))
    }

    /// A locate session with no radio map (none on disk, switchd never answering) hears beacons
    /// for a minute: each cycle still drops what is older than the window.
    @Test func aSessionWithoutAMapKeepsOnlyTheWindow() async throws {
        let directory = try TemporaryDirectory()
        let unanswered = ScriptedHTTPClient { _, _ in try await heldUntilCancelled() }
        let maps = RadioMapRefresher(
            cache: RadioMapCache(
                path: directory.file("radiomap.json"),
                api: SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: unanswered), logger: quietLogger
            ),
            interval: .seconds(60)
        )
        let (_, positions) = AsyncStream.makeStream(of: NewPosition.self)
        let positioner = Positioner(
            scannerID: testScanner, settings: Positioner.Settings(bleWindow: .seconds(2)), maps: maps, positions: positions,
            events: EventLog.disabled(logger: quietLogger), logger: quietLogger
        )
        await positioner.begin()
        for second in 0..<60 {
            for minor in 1...5 {
                positioner.heard(Self.advertisement(minor: UInt16(minor), at: Double(second)))
            }
            await positioner.cycleEnded(wifi: [], revision: 2, at: Self.start.addingTimeInterval(Double(second)))
            #expect(positioner.advertisementsKept <= 3 * 5, "second \(second): \(positioner.advertisementsKept) kept")
        }
        #expect(positioner.advertisementsKept == 3 * 5, "the last two seconds and this one")
    }
}
