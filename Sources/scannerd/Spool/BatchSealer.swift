#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// Seals a batch: its ``MeasurementBatch`` JSON (see ``SpooledBatch/json``) is made durable in
/// `ready/` (temporary file, `fsync`, rename, `fsync` of `ready/`), then the `sealed` event is
/// recorded, then the journal is deleted. A crash at any point leaves the journal or the ready
/// file or both; sealing the journal again gives the same batch ID and measurements.
///
/// `ready/` is held open for the sealer's life, so each seal `fsync`s it without opening and
/// closing it: at four seals a second that file handling was a fair part of scannerd's work.
final class BatchSealer {
    let layout: SpoolLayout
    let events: EventLog
    let logger: Logger
    private let readyDirectory: FileDescriptor

    /// Throws when `ready/` cannot be opened.
    init(layout: SpoolLayout, events: EventLog, logger: Logger) throws(SystemError) {
        self.layout = layout
        self.events = events
        self.logger = logger
        readyDirectory = try FileDescriptor.open(layout.ready, .directory)
    }

    deinit {
        try? readyDirectory.close() // Only ever fsynced; nothing to lose.
    }

    /// Whether a batch may have been sealed before: then a ready or rejected file of its name
    /// means an earlier seal was interrupted after writing it, and the batch is already safe.
    enum Attempt {
        /// A batch sealed for the first time by the spool that opened it: no file of its name
        /// can exist, and none is looked for.
        case first
        /// A leftover journal, or a batch whose sealing failed before.
        case again
    }

    /// Returns the ready file's length. Throws when the ready file cannot be written; the
    /// journal is then kept, to be sealed again later. A journal that cannot be deleted
    /// afterwards is only logged: the batch is safe, and sealing it again later repeats the same batch.
    @discardableResult
    func seal(_ batch: SpooledBatch, as name: BatchFileName, journal: String, attempt: Attempt = .again) throws -> Int {
        let json = batch.json
        if attempt == .first || !FileSystem.exists(layout.ready(name)) && !FileSystem.exists(layout.rejected(name)) {
            try writeDurably(json, as: name)
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

    /// ``FileSystem/writeDurably(_:to:)`` into `ready/`, with its directory `fsync` through the
    /// descriptor held open. Throws naming the call and the file that failed; a temporary file
    /// left behind is removed when the spool next opens (``JournalRecovery``).
    private func writeDurably(_ json: Data, as name: BatchFileName) throws(SystemError) {
        let temporary = layout.ready + "/" + FileSystem.temporaryPrefix + name.readyText
        try FileSystem.writeSynced(json, to: temporary)
        try FileSystem.rename(temporary, to: layout.ready(name))
        do {
            try readyDirectory.sync()
        } catch {
            throw SystemError(call: error.call, errno: error.errno, path: layout.ready)
        }
    }
}
