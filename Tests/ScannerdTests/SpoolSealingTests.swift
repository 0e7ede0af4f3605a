import Foundation
import ScanContract
import Testing
@testable import scannerd

/// Sealing into `ready/` through the directory descriptor the sealer holds open.
@Suite("Spool: sealing", .timeLimit(.minutes(1)))
struct SpoolSealingTests {
    /// A batch whose ready file cannot be written keeps its journal; the next seal writes it
    /// (before the batch after it), whole, and each batch is in `ready/` once.
    @Test func aFailedSealIsRetriedBeforeTheNextBatchAndEachBatchIsReadyOnce() async throws {
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        let first = [wifiMeasurement(scan: 0), wifiMeasurement(scan: 1)]
        await spool.append(first, revision: 3)
        let journal = try #require(try journalFiles(spool).first.flatMap { JournalFileName(text: $0) })
        // A directory where the temporary file goes makes its open() fail.
        let blocker = spool.layout.ready + "/" + FileSystem.temporaryPrefix + journal.batch.readyText
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)

        await #expect(throws: SystemError.self) { try await spool.sealOpenBatch() }
        #expect(try spool.readyBatches().isEmpty)
        #expect(try journalFiles(spool) == [journal.text], "the journal is kept")

        try FileManager.default.removeItem(atPath: blocker)
        let second = [wifiMeasurement(scan: 2)]
        await spool.append(second, revision: 3)
        try await spool.sealOpenBatch()
        let ready = try spool.decodedReadyBatches()
        #expect(ready.map(\.batchID) == [journal.batch.batchID, ready.last?.batchID])
        #expect(ready.map(\.measurements) == [first, second])
        #expect(try journalFiles(spool).isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: spool.layout.ready).filter { $0.hasPrefix(FileSystem.temporaryPrefix) }
        #expect(leftovers.isEmpty)
    }
}
