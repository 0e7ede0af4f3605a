import Foundation
import GRDB
import Harness
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Uploads arriving while a commit runs are stored together in the next one, each answered with
/// its own result once that commit is done; a full queue refuses at once with 503 and Retry-After;
/// while a switch change waits, each commit ends after one batch.
@Suite("Ingest coalescing")
struct IngestCoalescerTests {
    /// A database whose write queue the test can hold, and which counts its commits.
    struct Rig {
        let database: AppDatabase
        let commits = WaitableCount()
        let metrics = SwitchdMetrics()
        let switchWrites = SwitchWritesWaiting()
        let coalescer: IngestCoalescer
        let revision: Int

        init(maxQueuedReadings: Int = IngestCoalescer.defaultMaxQueuedReadings) async throws {
            var configuration = AppDatabase.configuration()
            let commits = commits
            configuration.prepareDatabase { db in
                db.trace(options: .statement) { event in
                    if event.expandedDescription.hasPrefix("COMMIT") { commits.add() }
                }
            }
            database = try AppDatabase(DatabaseQueue(configuration: configuration))
            coalescer = IngestCoalescer(
                database: database, switchWrites: switchWrites, metrics: metrics.factory, logger: Logger(label: "test"),
                maxQueuedReadings: maxQueuedReadings
            )
            revision = try await database.updateSwitch(of: .default, with: SwitchPatch(scanning: true, mode: .locate, storeData: true), at: Date())
                .scanSwitch.revision
        }

        /// Holds the database's writer until the returned release is called.
        func holdWriter() async -> @Sendable () -> Void {
            let release = DispatchSemaphore(value: 0)
            await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
                Task {
                    try await database.writer.write { _ in
                        held.resume()
                        release.wait()
                    }
                }
            }
            return { release.signal() }
        }

        /// Returns once `count` uploads wait in the coalescer's queue.
        func waitUntilQueued(_ count: Int) async {
            while coalescer.queuedBatchCount < count {
                await Task.yield()
            }
        }

        /// Returns once an upload leads a commit (it then waits for the held writer).
        func waitUntilCommitting() async {
            while !coalescer.isCommitting {
                await Task.yield()
            }
        }

        func storedMeasurements() async throws -> Int {
            try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM measurement") ?? 0 }
        }
    }

    @Test func uploadsQueuedDuringACommitShareTheNextAndEachGetsItsOwnResult() async throws {
        let rig = try await Rig()
        let release = await rig.holdWriter()
        let committedBefore = rig.commits.value
        let first = Readings.batch([Readings.wifi()], revision: rig.revision)
        let good = (0..<3).map { _ in Readings.batch([Readings.wifi(), Readings.ble()], revision: rig.revision) }
        let bad = Readings.batch([Readings.wifi()], revision: rig.revision + 40)

        let leading = Task { try await rig.coalescer.ingest(first, at: Date()) }
        await rig.waitUntilCommitting()
        // The leader is at the held writer; these queue behind it.
        let queued = [good[0], bad, good[1], good[2]].map { batch in
            Task { () -> Result<IngestOutcome, any Error> in
                do { return .success(try await rig.coalescer.ingest(batch, at: Date())) } catch { return .failure(error) }
            }
        }
        await rig.waitUntilQueued(4)
        release()

        #expect(try await leading.value.receipt.stored == 1)
        var results: [Result<IngestOutcome, any Error>] = []
        for task in queued { results.append(await task.value) }
        #expect(try results[0].get().receipt.stored == 2)
        #expect(try results[2].get().receipt.stored == 2 && results[3].get().receipt.stored == 2)
        #expect(throws: StoreError.self) { try results[1].get() }
        // The held write, then the five batches in at most two commits (the leader may have taken
        // the others into its own group if they queued before it reached the database).
        #expect(rig.commits.value - committedBefore <= 3)
        #expect(try await rig.storedMeasurements() == 7, "the refused batch is rolled back alone")
    }

    /// A flip must not wait for a whole group's inserts: while a switch change waits for the
    /// writer, each commit stores one batch and puts the group's others back at the head of the
    /// queue. Without that, the four queued batches would share one commit.
    @Test func whileASwitchChangeWaitsEachCommitHoldsOneBatch() async throws {
        let rig = try await Rig()
        let release = await rig.holdWriter()
        let committedBefore = rig.commits.value
        let leading = Task { try await rig.coalescer.ingest(Readings.batch([Readings.wifi()], revision: rig.revision), at: Date()) }
        await rig.waitUntilCommitting()
        let queued = (0..<4).map { _ in
            Task { try await rig.coalescer.ingest(Readings.batch([Readings.wifi(), Readings.ble()], revision: rig.revision), at: Date()) }
        }
        await rig.waitUntilQueued(4)
        // A switch change that waits (for the test's word instead of the writer) until the
        // batches are stored.
        let changeDone = AsyncStream<Void>.makeStream()
        let change = Task { await rig.switchWrites.during { for await _ in changeDone.stream {} } }
        while !rig.switchWrites.any { await Task.yield() }
        release()

        #expect(try await leading.value.receipt.stored == 1)
        for task in queued { #expect(try await task.value.receipt.stored == 2) }
        #expect(rig.commits.value - committedBefore == 1 + 5, "the held write, then one commit per batch")
        #expect(try await rig.storedMeasurements() == 9)
        changeDone.continuation.finish()
        await change.value

        // With no switch change waiting, queued batches share commits again.
        let release2 = await rig.holdWriter()
        let committedThen = rig.commits.value
        let leading2 = Task { try await rig.coalescer.ingest(Readings.batch([Readings.wifi()], revision: rig.revision), at: Date()) }
        await rig.waitUntilCommitting()
        let queued2 = (0..<4).map { _ in
            Task { try await rig.coalescer.ingest(Readings.batch([Readings.wifi()], revision: rig.revision), at: Date()) }
        }
        await rig.waitUntilQueued(4)
        release2()
        _ = try await leading2.value
        for task in queued2 { _ = try await task.value }
        #expect(rig.commits.value - committedThen <= 3)
    }

    @Test func aFullQueueRefusesAtOnceWithRetryAfterAndStoresNothingOfThatBatch() async throws {
        let rig = try await Rig(maxQueuedReadings: 3)
        let release = await rig.holdWriter()
        let leading = Task { try await rig.coalescer.ingest(Readings.batch([Readings.wifi()], revision: rig.revision), at: Date()) }
        await rig.waitUntilCommitting()
        let queued = Task {
            try await rig.coalescer.ingest(Readings.batch([Readings.wifi(), Readings.ble()], revision: rig.revision), at: Date())
        }
        await rig.waitUntilQueued(1)

        let refused = Readings.batch([Readings.wifi(), Readings.ble()], revision: rig.revision)
        do {
            _ = try await rig.coalescer.ingest(refused, at: Date())
            Issue.record("a batch beyond the queue's room was accepted")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable && error.body.error.code == "busy")
            #expect(error.headers[.retryAfter] == "1")
        }
        release()
        _ = try await leading.value
        _ = try await queued.value
        #expect(try await rig.storedMeasurements() == 3)
        let samples = PrometheusSamples(String(decoding: rig.metrics.render(), as: UTF8.self))
        #expect(samples["switchd_ingest_busy_total"] == 1)

        // Drained, the queue takes batches again.
        #expect(try await rig.coalescer.ingest(refused, at: Date()).receipt.stored == 2)
    }
}
