import CoreMetrics
import Foundation
import Logging
import ScanContract
import Synchronization
import SwitchdStore

/// Stores uploaded batches from many concurrent requests in shared transactions, so that one
/// commit (one fsync) covers every batch that arrived while the previous commit ran.
///
/// No task runs in the background: the first request to find no commit in progress leads, and
/// commits its batch with every batch queued so far (up to ``maxReadingsPerCommit``); then it
/// hands the lead to the oldest batch still queued, whose request commits the next group, and so
/// on until the queue is empty. Every request is answered only after the commit holding its
/// batch, with that batch's own result: one refused batch is rolled back alone
/// (``AppDatabase/ingest(_:stopEarly:)``).
///
/// While a switch change waits for the database (``SwitchWritesWaiting``), a commit ends after the
/// batch it is storing and the group's other batches go back to the head of the queue: a flip
/// waits for one batch, not for ``maxReadingsPerCommit`` readings.
///
/// When ``maxQueuedReadings`` are already waiting, a batch is refused at once with 503 and
/// `Retry-After` (``APIError/ingestBusy(retryAfter:)``) instead of queueing behind seconds of work; that is
/// counted (`switchd_ingest_busy_total`) and logged once per episode.
final class IngestCoalescer: Sendable {
    let database: AppDatabase
    let switchWrites: SwitchWritesWaiting
    let maxQueuedReadings: Int
    let maxReadingsPerCommit: Int
    private let busy: CoreMetrics.Counter
    private let logger: Logger
    private let state = Mutex(State())

    /// Readings one commit holds at most; a larger backlog is committed in several. Other writes
    /// than a switch change wait for the commit running when they come, so this bounds that wait
    /// to the time 2,000 inserts and one fsync take, while one fsync still covers forty
    /// 50-reading batches.
    static let defaultMaxReadingsPerCommit = 2_000
    /// Readings queued at most; about a second of a thousand scanners' uploads.
    static let defaultMaxQueuedReadings = 40_000
    /// What a refused upload is told to wait before sending its batch again.
    static let retryAfter = Duration.seconds(1)

    private struct State {
        var queue: [Queued] = []
        var queuedReadings = 0
        var committing = false
        var busyLogged = false
    }

    private struct Queued {
        let batch: MeasurementBatch
        let received: Date
        let token: Int64?
        let turn: CheckedContinuation<Turn, Never>
    }

    /// What a request is told on arrival or woken with later.
    private enum Turn {
        case stored(Result<IngestOutcome, any Error>)
        case lead
        case full(firstTime: Bool)
    }

    init(
        database: AppDatabase, switchWrites: SwitchWritesWaiting, metrics: any MetricsFactory, logger: Logger,
        maxQueuedReadings: Int = defaultMaxQueuedReadings, maxReadingsPerCommit: Int = defaultMaxReadingsPerCommit
    ) {
        self.database = database
        self.switchWrites = switchWrites
        self.maxQueuedReadings = maxQueuedReadings
        self.maxReadingsPerCommit = maxReadingsPerCommit
        busy = CoreMetrics.Counter(label: "switchd_ingest_busy_total", factory: metrics)
        self.logger = logger
    }

    /// Uploads waiting for a commit (the leading one not counted).
    var queuedBatchCount: Int { state.withLock { $0.queue.count } }
    /// Whether an upload leads a commit now.
    var isCommitting: Bool { state.withLock { $0.committing } }

    /// Stores `batch` (validated) as ``AppDatabase/ingest(_:at:)`` does, once its group commits;
    /// when `token` is given, only if that token is still active in the storing transaction
    /// (``AppDatabase/ingest(_:stopEarly:)``).
    ///
    /// - Throws: ``APIError/ingestBusy(retryAfter:)`` when the queue is full (nothing is stored); otherwise what storing
    ///   the batch threw, the batch then stored not at all.
    func ingest(_ batch: MeasurementBatch, at received: Date, token: Int64? = nil) async throws -> IngestOutcome {
        let turn = await withCheckedContinuation { (turn: CheckedContinuation<Turn, Never>) in
            let now: Turn? = state.withLock { state in
                if !state.committing {
                    state.committing = true
                    return .lead
                }
                if state.queuedReadings + batch.measurements.count > maxQueuedReadings, !state.queue.isEmpty {
                    defer { state.busyLogged = true }
                    return .full(firstTime: !state.busyLogged)
                }
                state.queue.append(Queued(batch: batch, received: received, token: token, turn: turn))
                state.queuedReadings += batch.measurements.count
                return nil
            }
            if let now { turn.resume(returning: now) }
        }
        switch turn {
        case .stored(let result):
            return try result.get()
        case .lead:
            return try await commit(leading: batch, received: received, token: token)
        case .full(let firstTime):
            busy.increment()
            if firstTime {
                logger.warning("Ingest queue full: uploads are refused with 503 and Retry-After until it drains", metadata: [
                    "queuedReadingsLimit": "\(maxQueuedReadings)",
                ])
            }
            throw APIError.ingestBusy(retryAfter: Self.retryAfter)
        }
    }

    /// Commits `batch` with the oldest queued batches, wakes their requests with their results,
    /// puts back at the head of the queue those a waiting switch change left out of the commit,
    /// then passes the lead to the next queued batch (or ends the episode when none is left).
    private func commit(leading batch: MeasurementBatch, received: Date, token: Int64?) async throws -> IngestOutcome {
        let followers = state.withLock { state in
            var readings = batch.measurements.count
            var taken = 0
            while taken < state.queue.count, readings + state.queue[taken].batch.measurements.count <= maxReadingsPerCommit {
                readings += state.queue[taken].batch.measurements.count
                taken += 1
            }
            let followers = Array(state.queue.prefix(taken))
            state.queue.removeFirst(taken)
            state.queuedReadings -= readings - batch.measurements.count
            return followers
        }
        let group = [(batch: batch, received: received, token: token)] + followers.map { (batch: $0.batch, received: $0.received, token: $0.token) }
        let results: [Result<IngestOutcome, any Error>]
        do {
            // Not cancelled with the leading request: the other requests' batches are in it too.
            let (database, switchWrites) = (database, switchWrites)
            results = try await Task { try await database.ingest(group, stopEarly: { switchWrites.any }) }.value
        } catch {
            results = Array(repeating: .failure(error), count: group.count)
        }
        for (follower, result) in zip(followers, results.dropFirst()) {
            follower.turn.resume(returning: .stored(result))
        }
        let leftOut = followers.dropFirst(results.count - 1)
        let next = state.withLock { state -> Queued? in
            state.queue.insert(contentsOf: leftOut, at: 0)
            state.queuedReadings += leftOut.reduce(0) { $0 + $1.batch.measurements.count }
            guard !state.queue.isEmpty else {
                state.committing = false
                if state.queuedReadings == 0 { state.busyLogged = false }
                return nil
            }
            let next = state.queue.removeFirst()
            state.queuedReadings -= next.batch.measurements.count
            return next
        }
        next?.turn.resume(returning: .lead)
        return try results[0].get()
    }
}
