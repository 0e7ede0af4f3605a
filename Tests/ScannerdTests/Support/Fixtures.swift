import Foundation
import Logging
import ScanContract
@testable import scannerd

/// A logger that writes nothing, so test output stays readable.
let quietLogger = Logger(label: "scannerd-tests", factory: { _ in SwiftLogNoOpLogHandler() })

let testScanner = try! ScannerID("test-scanner")

func wifiMeasurement(scan: Int = 0, rssi: Int = -60, id: UUID = UUID()) -> ScanContract.Measurement {
    ScanContract.Measurement(
        id: id, time: Date(timeIntervalSince1970: 1_795_000_000), rssi: rssi, scan: scan,
        observation: .wifi(WiFiObservation(bssid: BSSID(rawValue: 0x02_00_00_00_01_00), ssid: "lab", frequencyMHz: 2412))
    )
}

/// A spool in `directory` whose batches seal only when full, on a revision change, or when
/// told, unless given a shorter age.
func makeSpool(
    in directory: String, events: EventLog, batchSize: Int = 1000, batchAge: Duration = .seconds(3600),
    maxBytes: Int = Spool.Settings.defaultMaxBytes, counters: ScannerdCounters = ScannerdCounters(),
    clock: any Clock<Duration> = ContinuousClock(), logger: Logger = quietLogger
) throws -> Spool {
    try Spool(
        directory: directory,
        settings: Spool.Settings(scannerID: testScanner, batchSize: batchSize, batchAge: batchAge, maxBytes: maxBytes),
        events: events, logger: logger, counters: counters, clock: clock
    )
}

func decodeBatch(_ data: Data) throws -> MeasurementBatch {
    try JSONCoding.decoder().decode(MeasurementBatch.self, from: data)
}

extension Spool {
    /// Every batch in `ready/`, decoded, oldest first.
    nonisolated func decodedReadyBatches() throws -> [MeasurementBatch] {
        try readyBatches().map { try decodeBatch(FileSystem.readFile($0.path)) }
    }
}

/// Journal files in the spool's journal directory.
func journalFiles(_ spool: Spool) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: spool.layout.journals).sorted()
}

/// Writes a journal as a killed scannerd leaves it, in the spool at `spoolDirectory`.
func writeJournal(in spoolDirectory: String, _ name: JournalFileName, _ data: Data) throws {
    let layout = SpoolLayout(root: spoolDirectory)
    try FileManager.default.createDirectory(atPath: layout.journals, withIntermediateDirectories: true)
    try data.write(to: URL(fileURLWithPath: layout.journal(name)))
}
