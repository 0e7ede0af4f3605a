import Foundation
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
    nonisolated func body(of batch: ReadyBatch) throws -> Data {
        try FileSystem.readFile(batch.path)
    }

    /// switchd has the batch: its spooled copy is deleted.
    nonisolated func acknowledge(_ batch: ReadyBatch) throws {
        try FileSystem.remove(batch.path)
    }

    /// switchd refused the batch for good: it moves to `rejected/`, with switchd's answer saved
    /// beside it first, so that it is kept for a person to look at and never sent again.
    ///
    /// Throws when either file cannot be written; the batch then stays in `ready/`.
    nonisolated func reject(_ batch: ReadyBatch, status: Int, response: Data) throws {
        let record = RejectionRecord(
            batchID: batch.batchID, status: status, time: Date(), response: String(decoding: response, as: UTF8.self)
        )
        let encoder = JSONCoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        try FileSystem.writeDurably(try encoder.encode(record), to: layout.rejectionResponse(batch.name))
        try FileSystem.rename(batch.path, to: layout.rejected(batch.name))
        try FileSystem.syncDirectory(layout.rejected)
        try FileSystem.syncDirectory(layout.ready)
    }
}
