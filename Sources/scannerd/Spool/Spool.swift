import Foundation
import Logging
import ScanContract

/// The on-disk spool between the radios and the uploader; nothing appended to it is lost.
///
/// Each measurement is appended to the open batch's journal with one `write()` before `append`
/// returns, so a killed process loses nothing it appended (the kernel keeps written data). A
/// batch is sealed into `ready/` when it holds `batchSize` measurements, `batchAge` after its
/// first one, when the revision changes, and on shutdown; journals left by a crash are sealed
/// when the spool opens. The uploader takes ready batches oldest first and is woken by
/// ``readyBatchesArrived`` when one is sealed.
actor Spool {
    struct Settings: Sendable, Equatable {
        var scannerID: ScannerID
        var batchSize: Int
        var batchAge: Duration

        static let defaultBatchSize = 500
        static let defaultBatchAge: Duration = .milliseconds(250)
    }

    nonisolated let layout: SpoolLayout
    let settings: Settings
    let logger: Logger
    private let sealer: BatchSealer
    private static let newline = Data([UInt8(ascii: "\n")])
    private var openBatch: OpenBatch?
    /// Batches whose sealing failed (a full disk, say); retried at every later seal.
    private var unsealed: [OpenBatch] = []
    private var nextSequence: Int
    /// The latest count of completed scan cycles, and of which revision; sealed batches of that
    /// revision carry it.
    private var completedScans: (revision: Int, count: Int)?

    /// Yields (coalesced) whenever a batch has been sealed into `ready/`. One consumer.
    nonisolated let readyBatchesArrived: AsyncStream<Void>
    private let readyContinuation: AsyncStream<Void>.Continuation
    /// Yields each batch as it opens, for sealing by age (see ``run()``).
    nonisolated let openedBatches: AsyncStream<OpenedBatch>
    private let openedContinuation: AsyncStream<OpenedBatch>.Continuation

    /// Opens the spool in `directory`, creating it when missing, and seals every journal a
    /// previous process left (see ``JournalRecovery``). Throws when the directories cannot be
    /// made or read, or a leftover journal cannot be sealed.
    init(directory: String, settings: Settings, events: EventLog, logger: Logger) throws {
        let layout = SpoolLayout(root: directory)
        for path in [layout.root, layout.journals, layout.ready, layout.rejected] {
            try FileSystem.makeDirectories(path)
        }
        let sealer = BatchSealer(layout: layout, events: events, logger: logger)
        let recovery = JournalRecovery(layout: layout, sealer: sealer, logger: logger)
        self.nextSequence = try recovery.recover() + 1
        self.layout = layout
        self.settings = settings
        self.logger = logger
        self.sealer = sealer
        (readyBatchesArrived, readyContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        (openedBatches, openedContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Appends a measurement taken under switch `revision`, sealing the open batch first when it
    /// is of another revision, and after when it is full.
    ///
    /// Throws when the journal cannot be written: the measurement is then not in the spool. A
    /// batch that cannot be sealed is logged and kept (see ``sealOpenBatch()``); the measurement
    /// is in the spool all the same.
    func append(_ measurement: Measurement, revision: Int) throws {
        if let openBatch, openBatch.revision != revision {
            sealLoggingFailure()
        }
        let line = MeasurementLine.encode(measurement)
        // Taken out of `openBatch` so that appending does not copy its lines.
        var open = try openBatch.take() ?? startBatch(revision: revision)
        do {
            try open.descriptor.write(line + Self.newline)
        } catch {
            openBatch = open
            throw error
        }
        open.batch.append(line, id: measurement.id)
        openBatch = open
        if open.batch.count >= settings.batchSize {
            sealLoggingFailure()
        }
    }

    /// Records that `count` scan cycles of `revision` are complete: every reading of them has been
    /// appended. The next batch sealed carries the count, which is how switchd learns of progress.
    func recordScansCompleted(_ count: Int, revision: Int) {
        completedScans = (revision, count)
    }

    /// Seals the open batch now, if there is one, after any whose sealing failed before.
    ///
    /// Throws like ``append(_:revision:)``; a batch that could not be sealed keeps its journal
    /// and is tried again at the next seal, or sealed on the next start.
    func sealOpenBatch() throws {
        if var batch = openBatch {
            openBatch = nil
            if let completedScans, completedScans.revision == batch.revision {
                batch.batch.scansCompleted = completedScans.count
            }
            do {
                try batch.descriptor.close()
            } catch {
                logger.warning("closing a journal failed", metadata: ["batchID": "\(batch.batchID)", "error": "\(error)"])
            }
            unsealed.append(batch)
        }
        while let batch = unsealed.first {
            try sealer.seal(batch.batch, as: batch.name.batch, journal: batch.path)
            unsealed.removeFirst()
            readyContinuation.yield()
        }
    }

    /// Seals the batch `batchID` if it is still the open one (it may have been sealed already,
    /// when full or when the revision changed). A failure is logged.
    func sealByAge(_ batchID: UUID) {
        guard openBatch?.batchID == batchID else { return }
        sealLoggingFailure()
    }

    private func sealLoggingFailure() {
        do {
            try sealOpenBatch()
        } catch {
            logger.error("could not seal a batch; its journal is kept, and sealing is tried again with the next batch and on the next start", metadata: [
                "error": "\(error)",
            ])
        }
    }

    private func startBatch(revision: Int) throws -> OpenBatch {
        let name = JournalFileName(
            batch: BatchFileName(sequence: nextSequence, batchID: UUID()), revision: revision, scannerID: settings.scannerID
        )
        nextSequence += 1
        let path = layout.journal(name)
        let batch = OpenBatch(name: name, path: path, descriptor: try FileDescriptor.open(path, .append))
        openedContinuation.yield(OpenedBatch(batchID: batch.batchID, deadline: .now + settings.batchAge))
        return batch
    }
}
