import Foundation
import RadioWire
import ScanContract
import Testing
@testable import scannerd

/// Eddystone-TLM reports of a scan session through the spool: a `{"telemetry":…}` journal line
/// beside the measurement lines, the sealed batch's last key, split off again for upload; journals
/// of older scannerds still read, and a line that does not read is skipped with its reason logged.
@Suite("Spool: telemetry lines")
struct SpoolTelemetryTests {
    static let beacon = TagIdentity.iBeacon(BeaconID(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 7))

    static func report(millivolts: Int = 2900, at seconds: Double = 0) -> HeardTelemetry {
        HeardTelemetry(
            identity: beacon, heardAt: Date(timeIntervalSince1970: 1_795_000_000 + seconds), batteryMillivolts: millivolts,
            temperatureCelsius: 21.5, advertisementCount: 1234, uptimeSeconds: 3600
        )
    }

    static func line(_ data: some Encodable) throws -> Data {
        try JSONCoding.encoder().encode(data) + Data("\n".utf8)
    }

    @Test func telemetryRidesInTheBatchAndIsSplitOffForUpload() async throws {
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.file("spool"), events: .disabled(logger: quietLogger))
        let measurements = [wifiMeasurement(scan: 0), wifiMeasurement(scan: 0)]
        await spool.append(measurements, telemetry: [Self.report()], revision: 2)
        try await spool.sealOpenBatch()

        let body = try FileSystem.readFile(try #require(spool.readyBatches().first).path)
        #expect(try decodeBatch(body).measurements == measurements, "switchd's ingest reads the file as it is")
        let ready = ReadyBody(body)
        #expect(ready.telemetry == [Self.report()])
        #expect(ready.unreadableTelemetry == nil)
        #expect(!String(decoding: ready.measurements, as: UTF8.self).contains("telemetry"))
        #expect(ready.measurements.withUnsafeBytes { MeasurementBatch.readPlainJSON($0) }?.measurements == measurements, "switchd's fast path reads what is posted")
        #expect(try decodeBatch(ready.measurements).switchRevision == 2)
    }

    @Test func aJournalWithTelemetryIsSealedWithItAfterACrash() async throws {
        let directory = try TemporaryDirectory()
        let name = JournalFileName(batch: BatchFileName(sequence: 3, batchID: UUID()), revision: 4, scannerID: testScanner)
        let measurements = [wifiMeasurement(scan: 0), wifiMeasurement(scan: 1)]
        var journal = try Self.line(measurements[0])
        journal += try TelemetryLine.encode(Self.report()).line + Data("\n".utf8)
        journal += try Self.line(measurements[1])
        try writeJournal(in: directory.file("spool"), name, journal)

        let spool = try makeSpool(in: directory.file("spool"), events: .disabled(logger: quietLogger))
        let body = try FileSystem.readFile(try #require(spool.readyBatches().first).path)
        #expect(try decodeBatch(body).measurements == measurements)
        #expect(ReadyBody(body).telemetry == [Self.report()])
    }

    @Test func anOlderScannerdsJournalAndReadyFileReadAsBefore() async throws {
        let directory = try TemporaryDirectory()
        let name = JournalFileName(batch: BatchFileName(sequence: 1, batchID: UUID()), revision: 2, scannerID: testScanner)
        let measurements = [wifiMeasurement(scan: 0), wifiMeasurement(scan: 1)]
        try writeJournal(in: directory.file("spool"), name, try Self.line(measurements[0]) + Self.line(measurements[1]))

        let spool = try makeSpool(in: directory.file("spool"), events: .disabled(logger: quietLogger))
        let body = try FileSystem.readFile(try #require(spool.readyBatches().first).path)
        #expect(try decodeBatch(body).measurements == measurements)
        let ready = ReadyBody(body)
        #expect(ready.telemetry == nil)
        #expect(ready.measurements == body, "posted byte for byte")
    }

    @Test func unreadableLinesAreSkippedWithTheirReasonLogged() async throws {
        let directory = try TemporaryDirectory()
        let name = JournalFileName(batch: BatchFileName(sequence: 1, batchID: UUID()), revision: 2, scannerID: testScanner)
        let measurements = [wifiMeasurement(scan: 0), wifiMeasurement(scan: 1)]
        var outOfRange = Self.report()
        outOfRange.batteryMillivolts = 0
        var journal = try Self.line(measurements[0])
        journal += try TelemetryLine.encode(outOfRange).line + Data("\n".utf8)                   // 2: a report no TLM frame says
        journal += Data(#"{"telemetry":{"identity":"#.utf8) + Data("\n".utf8)                   // 3: a broken report
        journal += Data(#"{"anomaly":{"kind":"a line type of a later scannerd"}}"#.utf8) + Data("\n".utf8) // 4
        journal += Data([0xFF, 0x00, 0x7B]) + Data("\n".utf8)                                     // 5: damaged storage
        journal += try TelemetryLine.encode(Self.report()).line + Data("\n".utf8)
        journal += try Self.line(measurements[1])
        try writeJournal(in: directory.file("spool"), name, journal)

        let log = RecordingLogHandler()
        let spool = try makeSpool(in: directory.file("spool"), events: .disabled(logger: quietLogger), logger: log.logger)
        let body = try FileSystem.readFile(try #require(spool.readyBatches().first).path)
        #expect(try decodeBatch(body).measurements == measurements)
        #expect(ReadyBody(body).telemetry == [Self.report()])
        let skipped = log.lines.filter { $0.message.contains("unreadable line") }
        #expect(skipped.map { $0.metadata["line"]?.description } == ["2", "3", "4", "5"])
        #expect(skipped.allSatisfy { $0.level == .error && !($0.metadata["reason"]?.description ?? "").isEmpty })
        #expect(skipped.first?.metadata["reason"]?.description.contains("batteryMillivolts") == true)
    }

    @Test func aLeftoverJournalOfTelemetryAloneIsDeleted() async throws {
        let directory = try TemporaryDirectory()
        let name = JournalFileName(batch: BatchFileName(sequence: 1, batchID: UUID()), revision: 2, scannerID: testScanner)
        try writeJournal(in: directory.file("spool"), name, try TelemetryLine.encode(Self.report()).line + Data("\n".utf8))
        let spool = try makeSpool(in: directory.file("spool"), events: .disabled(logger: quietLogger))
        #expect(try spool.readyBatches().isEmpty, "a batch of no measurements is not one switchd takes")
        #expect(try journalFiles(spool).isEmpty)
    }

    /// A scan session's TLM goes to the iBeacon heard from the same address, once a minute.
    @Test func aSessionsTelemetryGoesToTheIBeaconOfItsAddress() throws {
        let address = TagIdentity.address(try MACAddress("0a:0b:0c:0d:0e:0f"))
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let tlm = EddystoneTLM.Telemetry(batteryMillivolts: 2800, temperature: 20, advertisementCount: 10, uptime: 60)
        var throttle = TelemetryThrottle()
        throttle.heardInSession(TrackHearing(identities: [address], rssi: -70, time: start, telemetry: tlm))
        #expect(throttle.take().isEmpty, "no iBeacon heard from that address yet")
        throttle.heardInSession(TrackHearing(identities: [Self.beacon, address], rssi: -70, time: start))
        throttle.heardInSession(TrackHearing(identities: [address], rssi: -70, time: start.addingTimeInterval(1), telemetry: tlm))
        #expect(throttle.take().map(\.identity) == [Self.beacon])
        throttle.heardInSession(TrackHearing(identities: [Self.beacon, address], rssi: -70, time: start.addingTimeInterval(2)))
        throttle.heardInSession(TrackHearing(identities: [address], rssi: -70, time: start.addingTimeInterval(30), telemetry: tlm))
        #expect(throttle.take().isEmpty, "within a minute")
        throttle.heardInSession(TrackHearing(identities: [address], rssi: -70, time: start.addingTimeInterval(62), telemetry: tlm))
        #expect(throttle.take().map(\.heardAt) == [start.addingTimeInterval(62)])
    }
}
