#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// Seals a batch: its ``MeasurementBatch`` JSON (see ``SpooledBatch/json``) is made durable in
/// `ready/` (temporary file, `fsync`, rename, directory `fsync`), then the `sealed` event is
/// recorded, then the journal is deleted. A crash at any point leaves the journal or the ready file or both; sealing the
/// journal again gives the same batch ID and measurements.
struct BatchSealer {
    let layout: SpoolLayout
    let events: EventLog
    let logger: Logger

    /// Returns the ready file's length. Throws when the ready file cannot be written; the
    /// journal is then kept, to be sealed again later. A journal that cannot be deleted
    /// afterwards is only logged: the batch is safe, and sealing it again later repeats the same batch.
    @discardableResult
    func seal(_ batch: SpooledBatch, as name: BatchFileName, journal: String) throws -> Int {
        let readyPath = layout.ready(name)
        let json = batch.json
        // A ready or rejected file of this name exists when an earlier seal was interrupted
        // after writing it; the batch is then already safe.
        if !FileSystem.exists(readyPath) && !FileSystem.exists(layout.rejected(name)) {
            try FileSystem.writeDurably(json, to: readyPath)
        }
        events.record(.sealed(batchID: batch.batchID, revision: batch.revision, count: batch.count, ids: batch.ids))
        logger.debug("sealed a batch", metadata: [
            "batchID": "\(batch.batchID)", "revision": "\(batch.revision)", "count": "\(batch.count)",
        ])
        do {
            try FileSystem.remove(journal)
        } catch {
            logger.warning("could not delete a sealed batch's journal; it will be sealed again on the next start", metadata: [
                "batchID": "\(batch.batchID)", "error": "\(error)",
            ])
        }
        return json.count
    }
}
