import Foundation
import Harness
import ScanContract
import Testing
@testable import scannerd

/// `scannerd bench` measures the daemon's own path; these check that the path it drives turns
/// every replayed advertisement into one spooled reading. No timing is checked here.
@Suite("The advertisement benchmark's path")
struct AdvertisementBenchTests {
    func bench(_ events: CapturedBeaconEvents, count: Int) -> AdvertisementBench {
        AdvertisementBench(events: events, count: count, rate: nil, logger: quietLogger)
    }

    @Test(arguments: ScanMode.allCases)
    func everyReplayedIBeaconReportBecomesOneSpooledReading(mode: ScanMode) async throws {
        let directory = try TemporaryDirectory()
        let events = try CapturedBeaconEvents(packets: [iBeaconReport(minor: 1), iBeaconReport(minor: 2, rssi: -70)], from: "the test")
        let result = try await bench(events, count: 300).run(mode: mode, directory: directory.file("state"))
        #expect(result.advertisements == 300 && result.spooled == 300)
        let batches = try FileSystem.contents(ofDirectory: directory.file("state/spool/ready")).map {
            try decodeBatch(FileSystem.readFile(directory.file("state/spool/ready/" + $0)))
        }
        let measurements = batches.flatMap(\.measurements)
        #expect(measurements.count == 300)
        #expect(Set(measurements.map(\.id)).count == 300)
        #expect(measurements.filter { $0.rssi == -70 }.count == 150)
    }

    @Test func eventsWithoutIBeaconsAreRefused() throws {
        let flagsOnly: [UInt8] = [0x04, 0x3E, 0x0F, 0x02, 0x01, 0x00, 0x01, 0x06, 0x05, 0x04, 0x03, 0x02, 0xC1, 0x03, 0x02, 0x01, 0x06, 0xC4]
        #expect(throws: BenchError.self) { try CapturedBeaconEvents(packets: [flagsOnly], from: "the test") }
    }

    @Test(.enabled(if: PublicData.has("ble-hci-captures"), Comment(rawValue: PublicData.missing("ble-hci-captures"))))
    func theCapturesElevenIBeaconEventsAreReplayed() async throws {
        let events = try CapturedBeaconEvents(folder: PublicData.path("ble-hci-captures"))
        #expect(events.packets.count == 11 && events.readings == Array(repeating: 1, count: 11))
        let directory = try TemporaryDirectory()
        let result = try await bench(events, count: 33).run(mode: .survey, directory: directory.file("state"))
        #expect(result.advertisements == 33 && result.spooled == 33)
    }
}
