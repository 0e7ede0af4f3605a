import Foundation
import ScanContract
import Testing
@testable import scannerd

/// Journals as a killed scannerd leaves them, written directly, then a new spool opening them.
@Suite("Spool: recovery after a crash")
struct JournalRecoveryTests {
    func journalLine(_ measurement: ScanContract.Measurement) throws -> Data {
        var line = try JSONCoding.encoder().encode(measurement)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    @Test func aLeftoverJournalIsSealedWithItsOwnBatchIDAndItsTornLastLineDropped() async throws {
        let directory = try TemporaryDirectory()
        let spoolDirectory = directory.file("spool")
        let name = JournalFileName(batch: BatchFileName(sequence: 7, batchID: UUID()), revision: 3, scannerID: try ScannerID("pi-7"))
        let measurements = [wifiMeasurement(scan: 0), wifiMeasurement(scan: 1)]
        var journal = Data()
        for measurement in measurements {
            journal.append(try journalLine(measurement))
        }
        let torn = try journalLine(wifiMeasurement(scan: 2)).prefix(40)
        journal.append(torn)
        try writeJournal(in: spoolDirectory, name, journal)

        let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger)
        let spool = try makeSpool(in: spoolDirectory, events: events)

        let ready = try spool.decodedReadyBatches()
        #expect(ready.count == 1)
        #expect(ready.first?.batchID == name.batch.batchID)
        #expect(ready.first?.switchRevision == 3)
        #expect(ready.first?.scannerID == name.scannerID, "the journal's own scanner, not this spool's")
        #expect(ready.first?.measurements == measurements)
        #expect(try journalFiles(spool).isEmpty)
        let sealed = try EventLogReader(path: directory.file("events.jsonl")).events("sealed")
        #expect(sealed.count == 1)
        #expect(sealed.first?["batchID"] as? String == name.batch.batchID.uuidString)
        #expect(sealed.first?["ids"] as? [String] == measurements.map(\.id.uuidString))

        // New batches sort after the recovered one.
        await spool.append(wifiMeasurement(), revision: 4)
        try await spool.sealOpenBatch()
        #expect(try spool.readyBatches().map(\.name.sequence) == [7, 8])
    }

    @Test func anEmptyJournalIsDeleted() async throws {
        let directory = try TemporaryDirectory()
        let name = JournalFileName(batch: BatchFileName(sequence: 1, batchID: UUID()), revision: 1, scannerID: testScanner)
        try writeJournal(in: directory.path, name, Data())
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        #expect(try spool.readyBatches().isEmpty)
        #expect(try journalFiles(spool).isEmpty)
    }

    @Test func aJournalWhoseBatchIsAlreadyReadyIsNotSealedTwiceOnDisk() async throws {
        // Killed after the ready file was renamed into place but before the journal was deleted.
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        let measurements = [wifiMeasurement(), wifiMeasurement()]
        for measurement in measurements {
            await spool.append(measurement, revision: 2)
        }
        let journalName = try #require(try journalFiles(spool).first)
        let journal = try Data(contentsOf: URL(fileURLWithPath: spool.layout.journals + "/" + journalName))
        try await spool.sealOpenBatch()
        try journal.write(to: URL(fileURLWithPath: spool.layout.journals + "/" + journalName))

        let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger)
        let reopened = try makeSpool(in: directory.path, events: events)
        let ready = try reopened.decodedReadyBatches()
        #expect(ready.count == 1)
        #expect(ready.first?.measurements == measurements)
        #expect(try journalFiles(reopened).isEmpty)
        let sealed = try EventLogReader(path: directory.file("events.jsonl")).events("sealed")
        #expect(sealed.map { $0["ids"] as? [String] } == [measurements.map(\.id.uuidString)], "the same batch, logged again")
    }

    @Test func unfinishedTemporaryFilesAreRemoved() async throws {
        let directory = try TemporaryDirectory()
        let layout = SpoolLayout(root: directory.path)
        try FileManager.default.createDirectory(atPath: layout.ready, withIntermediateDirectories: true)
        let temporary = layout.ready + "/" + FileSystem.temporaryPrefix + "000000000001_\(UUID().uuidString).json"
        try Data("{\"batchID\":".utf8).write(to: URL(fileURLWithPath: temporary))
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(try spool.readyBatches().isEmpty)
    }

    @Test func journalReaderKeepsCompleteLinesAndReportsDamage() throws {
        let good = [wifiMeasurement(), wifiMeasurement()]
        var data = try journalLine(good[0])
        data.append(Data("not json\n".utf8))
        data.append(try journalLine(good[1]))
        data.append(Data(#"{"id":"#.utf8))
        let contents = JournalReader.read(data)
        #expect(contents.measurements == good)
        #expect(contents.unreadableLines == [2])
        #expect(contents.tornTail == 6)
    }

    @Test func fileNamesRoundTrip() throws {
        let batch = BatchFileName(sequence: 42, batchID: UUID())
        #expect(BatchFileName(readyText: batch.readyText) == batch)
        #expect(BatchFileName(readyText: batch.responseText) == nil)
        #expect(batch.readyText.hasPrefix("000000000042_"))
        let journal = JournalFileName(batch: batch, revision: 12, scannerID: try ScannerID("pi_lab-2.b"))
        #expect(JournalFileName(text: journal.text) == journal)
        #expect(JournalFileName(text: "notes.txt") == nil)
    }
}
