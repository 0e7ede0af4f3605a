import Clocks
import Foundation
import RadioWire
import ScanContract
import Testing
@testable import scannerd

/// A survey session's BLE groups carry a TLM frame from an iBeacon's address: the session spools
/// it with the next readings, attributed to that iBeacon, and the sealed batch carries it.
@Suite("Scan session telemetry", .timeLimit(.minutes(1)))
struct SessionTelemetryTests {
    /// A BLE source whose session groups are what the test gives it (its plain readings, none).
    struct ScriptedSessionBLE: BLEScanner {
        let groups: AsyncThrowingStream<BLEHeardGroup, any Error>
        func advertisements() -> AsyncThrowingStream<[RadioReading], any Error> { AsyncThrowingStream { $0.finish() } }
        func sessionGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error> { groups }
    }

    struct BLEOnlyRadio: RadioSource {
        let ble: (any BLEScanner)?
        var name: String { "scripted" }
        var wifi: (any WiFiScanner)? { nil }
        func prepare(for scanSwitch: ScanSwitch) async {}
    }

    @Test func aSurveySessionSpoolsTheTelemetryOfTheIBeaconsItRecords() async throws {
        let directory = try TemporaryDirectory()
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let id = BeaconID(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 7)
        let address = BLEAddress(rawValue: 0x0A_0B_0C_0D_0E_0F)
        func reading(at seconds: Double) -> RadioReading {
            RadioReading(observation: .ble(BLEObservation(address: address, beacon: id, txPower: -59)), rssi: -70, time: start.addingTimeInterval(seconds))
        }
        let tlm = EddystoneTLM.Telemetry(batteryMillivolts: 2750, temperature: 18, advertisementCount: 99, uptime: 120)
        let (groups, radio) = AsyncThrowingStream.makeStream(of: BLEHeardGroup.self)
        radio.yield(BLEHeardGroup(readings: [reading(at: 0)], hearings: []))
        radio.yield(BLEHeardGroup(readings: [], hearings: [
            TrackHearing(identities: [.address(MACAddress(rawValue: address.rawValue))], rssi: -70, time: start.addingTimeInterval(1), telemetry: tlm),
        ]))
        radio.yield(BLEHeardGroup(readings: [reading(at: 2)], hearings: []))
        radio.finish()

        let spool = try makeSpool(in: directory.file("spool"), events: .disabled(logger: quietLogger))
        let session = ScanSession(
            scanSwitch: ScanSwitch(
                scannerID: testScanner, scanning: true, mode: .survey, roomID: 1, locationID: 4, storeData: true, revision: 2, changedAt: start
            ),
            radio: BLEOnlyRadio(ble: ScriptedSessionBLE(groups: groups)), spool: spool, positioner: nil,
            events: .disabled(logger: quietLogger), logger: quietLogger, clock: TestClock()
        )
        let scanning = Task { await session.run() }
        // The telemetry is written with the reading after it: wait for that line to be in the journal.
        while try journalFiles(spool).compactMap({ try? String(contentsOfFile: spool.layout.journals + "/" + $0, encoding: .utf8) })
            .joined().components(separatedBy: "\n").filter({ !$0.isEmpty }).count < 3 {
            await Task.yield()
        }
        session.stop()
        _ = await scanning.value
        try await spool.sealOpenBatch()

        let body = try FileSystem.readFile(try #require(spool.readyBatches().first).path)
        #expect(try decodeBatch(body).measurements.count == 2)
        #expect(ReadyBody(body).telemetry == [HeardTelemetry(
            identity: .iBeacon(id), heardAt: start.addingTimeInterval(1), batteryMillivolts: 2750, temperatureCelsius: 18,
            advertisementCount: 99, uptimeSeconds: 120
        )])
    }
}
