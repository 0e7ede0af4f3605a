#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// The uploader's side of the spool: sealed batches, and what became of them.
extension Spool {
    /// The batches in `ready/`, oldest first. Throws when the directory cannot be read.
    nonisolated func readyBatches() throws -> [ReadyBatch] {
        try FileSystem.contents(ofDirectory: layout.ready)
            .compactMap { BatchFileName(readyText: $0) }
            .sorted()
            .map { ReadyBatch(name: $0, path: layout.ready($0)) }
    }

    /// The batch's JSON, exactly as it is to be posted.
    func body(of batch: ReadyBatch) throws -> Data {
        try FileSystem.readFile(batch.path)
    }

    /// Whether the batch is still waiting in `ready/`: a full spool may have dropped it (see
    /// ``SpoolBudget``) while it was being sent.
    func holds(_ batch: ReadyBatch) -> Bool {
        FileSystem.exists(batch.path)
    }

    /// switchd has the batch: its spooled copy is deleted (already gone is fine).
    func acknowledge(_ batch: ReadyBatch) throws {
        try FileSystem.remove(batch.path)
        budget.removed(batch.name)
    }

    /// switchd refused the batch for good: it moves to `rejected/`, with switchd's answer saved
    /// beside it first, so that it is kept for a person to look at and not sent again until an
    /// operator re-queues it (``requeueRejected()``). A batch already gone (dropped) is left alone.
    ///
    /// Throws when either file cannot be written; the batch then stays in `ready/`.
    func reject(_ batch: ReadyBatch, status: Int, response: Data) throws {
        guard FileSystem.exists(batch.path) else { return }
        let record = RejectionRecord(
            batchID: batch.batchID, status: status, time: Date(), response: String(decoding: response, as: UTF8.self)
        )
        let encoder = JSONCoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        try FileSystem.writeDurably(try encoder.encode(record), to: layout.rejectionResponse(batch.name))
        try FileSystem.rename(batch.path, to: layout.rejected(batch.name))
        try FileSystem.syncDirectory(layout.rejected)
        try FileSystem.syncDirectory(layout.ready)
        budget.removed(batch.name)
    }
}
