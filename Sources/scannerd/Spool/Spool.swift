#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DaemonSupport
import Logging
import ScanContract

/// The on-disk spool between the radios and the uploader; nothing appended to it is lost unless
/// the spool is full or the disk fails, and then what is dropped is counted and said in the log.
///
/// Measurements are appended to the open batch's journal before `append` returns, those appended
/// together with one `write()`, so a killed process loses nothing it appended (the kernel keeps
/// written data). A batch is sealed into `ready/` when it holds `batchSize` measurements,
/// `batchAge` after its first one, when the revision changes, and on shutdown; journals left by a
/// crash are sealed when the spool opens. The uploader takes ready batches oldest first and is woken by
/// ``readyBatchesArrived`` when one is sealed.
///
/// The spool holds at most `maxBytes` (see ``SpoolBudget`` for what is dropped first). It runs
/// on a thread of its own (``SpoolExecutor``), so its writes and `fsync`s never block Swift's
/// cooperative pool, and reads time from the clock it is given.
actor Spool {
    struct Settings: Sendable, Equatable {
        var scannerID: ScannerID
        var batchSize: Int
        var batchAge: Duration
        var maxBytes: Int = Self.defaultMaxBytes

        static let defaultBatchSize = 500
        static let defaultBatchAge: Duration = .milliseconds(250)
        /// 256 MiB: about a million readings, hours of scanning with switchd away, while a 16 GB
        /// SD card keeps room for the system, its journal and its wear levelling.
        static let defaultMaxBytes = 256 * 1024 * 1024
    }

    nonisolated let layout: SpoolLayout
    let settings: Settings
    let logger: Logger
    nonisolated let counters: ScannerdCounters
    nonisolated let clock: ElapsedTime
    private let sealer: BatchSealer
    private let executor: SpoolExecutor
    private var openBatch: OpenBatch?
    /// Batches whose sealing failed (a full disk, say); retried at every later seal.
    private var unsealed: [OpenBatch] = []
    private var nextSequence: Int
    /// The latest count of completed scan cycles, and of which revision; sealed batches of that
    /// revision carry it.
    private var completedScans: (revision: Int, count: Int)?
    /// Revisions in locate mode: their batches are the first to go when the spool is full.
    private var locateRevisions: Set<Int> = []
    var budget: SpoolBudget
    /// Drops and failed seals, said at most once a minute.
    private var throttle = LogThrottle(interval: Spool.failureLogInterval)

    static let failureLogInterval: Duration = .seconds(60)

    /// Yields (coalesced) whenever a batch has been sealed into `ready/`. One consumer.
    nonisolated let readyBatchesArrived: AsyncStream<Void>
    private let readyContinuation: AsyncStream<Void>.Continuation
    /// Yields each batch as it opens, for sealing by age (see ``run()``).
    nonisolated let openedBatches: AsyncStream<OpenedBatch>
    private let openedContinuation: AsyncStream<OpenedBatch>.Continuation

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens the spool in `directory`, creating it when missing, and seals every journal a
    /// previous process left (see ``JournalRecovery``). Throws when the directories cannot be
    /// made or read, or a leftover journal cannot be sealed.
    ///
    /// - Parameters:
    ///   - counters: where dropped readings are counted.
    ///   - clock: times the sealing by age and the throttled log lines.
    init(
        directory: String, settings: Settings, events: EventLog, logger: Logger,
        counters: ScannerdCounters = ScannerdCounters(), clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        let layout = SpoolLayout(root: directory)
        for path in [layout.root, layout.journals, layout.ready, layout.rejected] {
            try FileSystem.makeDirectories(path)
        }
        let sealer = try BatchSealer(layout: layout, events: events, logger: logger)
        let recovery = JournalRecovery(layout: layout, sealer: sealer, logger: logger)
        self.nextSequence = try recovery.recover() + 1
        var budget = SpoolBudget(maxBytes: settings.maxBytes)
        for name in try FileSystem.contents(ofDirectory: layout.ready).compactMap({ BatchFileName(readyText: $0) }) {
            let bytes = try FileSystem.size(of: layout.ready(name))
            budget.add(name, SpoolBudget.Sealed(bytes: bytes, readings: 0, expendable: false))
        }
        self.budget = budget
        self.layout = layout
        self.settings = settings
        self.logger = logger
        self.counters = counters
        self.clock = ElapsedTime(clock)
        self.sealer = sealer
        self.executor = SpoolExecutor()
        (readyBatchesArrived, readyContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        (openedBatches, openedContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Appends one measurement: ``append(_:revision:)`` with a group of one.
    func append(_ measurement: Measurement, revision: Int) {
        append([measurement], revision: revision)
    }

    /// Appends `measurements`, taken under switch `revision`, in order, sealing the open batch
    /// first when it is of another revision, and whenever it is full. The lines that go into one
    /// batch are written to its journal with one `write()` before this returns: a group of
    /// readings heard together costs one hop onto the spool's thread and one system call. What
    /// was appended survives a killed process (the kernel keeps written data); a process killed
    /// during the `write()` had not returned from this, and recovery drops the torn last line
    /// such a write may leave (see ``JournalRecovery``).
    ///
    /// Never fails: a measurement that does not fit (see ``SpoolBudget``) is dropped, and so is
    /// the group's share of a batch that cannot be written (a full or failing disk); drops are
    /// counted in ``ScannerdCounters/droppedReadings`` and said in the log at most once a minute
    /// with the count. A batch that cannot be sealed is kept (see ``sealOpenBatch()``); the
    /// measurements are in the spool all the same.
    ///
    /// `telemetry` (Eddystone-TLM reports, a few a minute) goes into the batch that takes the
    /// last of `measurements`, in the same `write()`, as ``TelemetryLine``s; it is dropped (not
    /// counted as readings) with them, and when it does not fit or cannot be encoded.
    func append(_ measurements: [Measurement], telemetry: [HeardTelemetry] = [], revision: Int) {
        guard !measurements.isEmpty else { return }
        if let openBatch, openBatch.revision != revision {
            sealLoggingFailure()
        }
        var rest = measurements[...]
        while !rest.isEmpty {
            let room = max(1, settings.batchSize - (openBatch?.batch.count ?? 0))
            let last = rest.count <= room
            appendToOneBatch(rest.prefix(room), telemetry: last ? telemetry : [], revision: revision)
            rest = rest.dropFirst(room)
        }
    }

    /// Appends measurements that all fit in the open batch (or a new one) with one `write()`,
    /// and the telemetry with them when one of them fits; seals the batch when that fills it.
    private func appendToOneBatch(_ measurements: ArraySlice<Measurement>, telemetry: [HeardTelemetry], revision: Int) {
        var lines = JournalLines(capacity: measurements.count)
        for measurement in measurements {
            let length = lines.append(measurement)
            guard makeRoom(for: lines.bytes.count) else {
                lines.removeLast(length)
                drop(1, because: "the spool is full (--spool-max-bytes \(settings.maxBytes))")
                continue
            }
        }
        guard !lines.isEmpty else { return }
        for report in telemetry {
            do {
                let length = try lines.append(report)
                if !budget.fits(lines.bytes.count) { lines.removeLastTelemetry(length) }
            } catch {
                logger.warning("could not spool a telemetry report; dropped", metadata: ["error": "\(error)"])
            }
        }
        // Taken out of `openBatch` so that appending does not copy its lines.
        var open: OpenBatch
        do {
            open = try openBatch.take() ?? startBatch(revision: revision)
        } catch {
            drop(lines.count, because: "\(error)")
            return
        }
        do {
            try open.descriptor.write(lines.bytes)
            counters.journalWrites.increment()
        } catch {
            openBatch = open
            drop(lines.count, because: "\(error)")
            return
        }
        open.batch.append(lines)
        budget.appended(lines.bytes.count)
        openBatch = open
        if throttle.hasUnreported { logDrops(throttle.flush(at: clock.now)) }
        if open.batch.count >= settings.batchSize {
            sealLoggingFailure()
        }
    }

    /// Says which mode `scanSwitch`'s revision scans in, for the drop policy; a revision never
    /// described counts as survey.
    func describe(_ scanSwitch: ScanSwitch) {
        if scanSwitch.mode == .locate { locateRevisions.insert(scanSwitch.revision) }
    }

    /// Records that `count` scan cycles of `revision` are complete: every reading of them has been
    /// appended. The next batch sealed carries the count, which is how switchd learns of progress.
    func recordScansCompleted(_ count: Int, revision: Int) {
        completedScans = (revision, count)
    }

    /// Seals the open batch now, if there is one, after any whose sealing failed before.
    ///
    /// Throws when a ready file cannot be written; a batch that could not be sealed keeps its
    /// journal and is tried again at the next seal, or sealed on the next start.
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
            let bytes: Int
            do {
                bytes = try sealer.seal(batch.batch, as: batch.name.batch, journal: batch.path, attempt: batch.sealingFailed ? .again : .first)
            } catch {
                unsealed[0].sealingFailed = true
                throw error
            }
            unsealed.removeFirst()
            let sealed = SpoolBudget.Sealed(
                bytes: bytes, readings: batch.batch.count, expendable: locateRevisions.contains(batch.revision)
            )
            budget.sealed(batch.name.batch, sealed, journalBytes: batch.batch.journalBytes)
            readyContinuation.yield()
        }
    }

    /// Seals the batch `batchID` if it is still the open one (it may have been sealed already,
    /// when full or when the revision changed). A failure is logged.
    func sealByAge(_ batchID: UUID) {
        guard openBatch?.batchID == batchID else { return }
        sealLoggingFailure()
    }

    /// Whether the calling code runs on the spool's own thread; for tests.
    func runsOnItsOwnThread() -> Bool {
        SpoolExecutor.isCurrent
    }

    private func sealLoggingFailure() {
        do {
            try sealOpenBatch()
        } catch {
            guard let counts = throttle.note(1, of: "could not seal a batch: \(error)", at: clock.now) else { return }
            logger.error("could not seal a batch; its journal is kept, and sealing is tried again with the next batch and on the next start", metadata: [
                "failures": "\(counts)",
            ])
        }
    }

    /// Deletes the oldest locate-mode batches until `bytes` more fit; returns whether they do.
    private func makeRoom(for bytes: Int) -> Bool {
        while !budget.fits(bytes), let oldest = budget.oldestExpendable {
            let path = layout.ready(oldest)
            do {
                try FileSystem.remove(path)
            } catch {
                logger.error("could not delete a locate-mode batch to make room in the spool", metadata: [
                    "file": "\(path)", "error": "\(error)",
                ])
                return false
            }
            let sealed = budget.removed(oldest)
            drop(sealed?.readings ?? 0, because: "the spool is full: the oldest locate-mode batch made room")
        }
        return budget.fits(bytes)
    }

    /// Counts `count` lost readings, and says so when the throttle lets it.
    private func drop(_ count: Int, because reason: String) {
        counters.droppedReadings.add(count, ordering: .relaxed)
        logDrops(throttle.note(count, of: reason, at: clock.now))
    }

    private func logDrops(_ counts: [String: Int]?) {
        guard let counts else { return }
        for (reason, count) in counts.sorted(by: { $0.key < $1.key }) {
            logger.error("readings dropped; the count covers the time since the last such line", metadata: [
                "dropped": "\(count)", "reason": "\(reason)", "spoolBytes": "\(budget.usedBytes)",
                "spoolMaxBytes": "\(settings.maxBytes)",
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
        openedContinuation.yield(OpenedBatch(batchID: batch.batchID, deadline: clock.now + settings.batchAge))
        return batch
    }
}
