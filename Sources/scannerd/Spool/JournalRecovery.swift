#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// Seals the journals a previous process left open (killed, or its disk failed), each as the
/// batch it was: same batch ID, same measurements and telemetry. A torn last line (a `write()`
/// cut short) is dropped with a warning; a line that is not read (damaged, or of a later
/// scannerd) is dropped with an error naming it and why; a journal without measurements is deleted.
struct JournalRecovery {
    let layout: SpoolLayout
    let sealer: BatchSealer
    let logger: Logger

    /// Removes unfinished temporary files, seals leftover journals oldest first, and returns the
    /// highest batch sequence number in use (0 when none), so new batches sort after old ones.
    ///
    /// Throws when a directory cannot be read or a journal cannot be read or sealed; the journal
    /// then stays for the next attempt.
    func recover() throws -> Int {
        var highest = 0
        for directory in [layout.ready, layout.rejected] {
            for name in try FileSystem.contents(ofDirectory: directory) {
                if name.hasPrefix(FileSystem.temporaryPrefix) {
                    try FileSystem.remove(directory + "/" + name)
                } else if let batch = BatchFileName(readyText: name) {
                    highest = max(highest, batch.sequence)
                }
            }
        }
        var journals: [JournalFileName] = []
        for name in try FileSystem.contents(ofDirectory: layout.journals) {
            guard let journal = JournalFileName(text: name) else {
                logger.warning("ignoring a file in the journal directory that is not a journal", metadata: [
                    "file": "\(layout.journals)/\(name)",
                ])
                continue
            }
            journals.append(journal)
        }
        for journal in journals.sorted(by: { $0.batch < $1.batch }) {
            highest = max(highest, journal.batch.sequence)
            try recover(journal)
        }
        return highest
    }

    private func recover(_ journal: JournalFileName) throws {
        let path = layout.journal(journal)
        let contents = JournalReader.read(try FileSystem.readFile(path))
        let metadata: Logger.Metadata = ["batchID": "\(journal.batch.batchID)", "revision": "\(journal.revision)"]
        if contents.tornTail > 0 {
            logger.warning("dropping the torn last line of a leftover journal", metadata: metadata.merging(
                ["bytes": "\(contents.tornTail)"], uniquingKeysWith: { $1 }
            ))
        }
        for line in contents.unreadable {
            logger.error("dropping an unreadable line of a leftover journal", metadata: metadata.merging(
                ["line": "\(line.number)", "reason": "\(line.reason)"], uniquingKeysWith: { $1 }
            ))
        }
        guard !contents.measurements.isEmpty else {
            if !contents.telemetry.isEmpty {
                logger.warning("dropping the telemetry of a leftover journal without measurements", metadata: metadata.merging(
                    ["reports": "\(contents.telemetry.count)"], uniquingKeysWith: { $1 }
                ))
            }
            try FileSystem.remove(path)
            return
        }
        var batch = SpooledBatch(batchID: journal.batch.batchID, scannerID: journal.scannerID, revision: journal.revision)
        for (line, measurement) in zip(contents.lines, contents.measurements) {
            batch.append(line, id: measurement.id)
        }
        batch.appendTelemetry(contents.telemetry, lineBytes: contents.telemetryBytes)
        try sealer.seal(batch, as: journal.batch, journal: path)
        logger.info("sealed a batch left open by an earlier run", metadata: metadata.merging(
            ["count": "\(batch.count)"], uniquingKeysWith: { $1 }
        ))
    }
}
