import Dispatch
import Foundation
import ScanContract
import Testing
@testable import SwitchdStore

/// The measurement feed on PostgreSQL without a lock ordering ingest (docs/scale-out.md, "The
/// measurement feed's horizon"): two stores on one database, as two switchd instances, commit
/// readings out of sequence order, and readers through either never skip a reading that commits
/// late, never read one twice, and read them in sequence order.
@Suite("The measurement feed's horizon across instances", postgresInstalled, .postgresServer, .timeLimit(.minutes(2)))
struct PostgresFeedHorizonTests {
    static let now = PostgresIngestStoreTests.now

    /// The readings of the feed through `readers` in turn, `limit` a page, after `cursor` until
    /// the cursor reaches `until` or the task is cancelled: each page read as a stream reads it
    /// (past the last item of a full page, else past the end). Checks each page ascends past the
    /// cursor and the end never goes down. Returns the sequences read and the cursor (a read the
    /// cancellation interrupts counts for nothing).
    static func follow(
        _ readers: [AppDatabase], limit: Int, after start: Int64 = 0, until: Int64
    ) async throws -> (seen: [Int64], cursor: Int64) {
        var cursor = start
        var end: Int64 = 0
        var seen: [Int64] = []
        var turn = 0
        while cursor < until, !Task.isCancelled {
            let slice: FeedSlice<StoredMeasurement>
            do {
                slice = try await readers[turn % readers.count].measurements(matching: MeasurementFilter(), after: cursor, limit: limit)
            } catch is CancellationError {
                // Cancelled during a read: that page is not counted, and the cursor stays before it.
                break
            }
            turn += 1
            let sequences = slice.items.map(\.sequence)
            #expect(sequences == sequences.sorted() && (sequences.first.map { $0 > cursor } ?? true))
            #expect(slice.endOfFeed >= end, "the feed's end never goes down")
            end = max(end, slice.endOfFeed)
            seen += sequences
            cursor = sequences.count == limit ? sequences.last! : max(sequences.last ?? cursor, slice.endOfFeed)
        }
        return (seen, cursor)
    }

    /// Runs `body` with two instances of one fresh database, closing both whatever it does.
    static func withTwoInstances(maxConnections: Int, _ body: (AppDatabase, AppDatabase) async throws -> Void) async throws {
        let (a, b) = try await twoPostgresInstances(maxConnections: maxConnections)
        do {
            try await body(a, b)
        } catch {
            try await a.close()
            try await b.close()
            throw error
        }
        try await a.close()
        try await b.close()
    }

    @Test func aReadingCommittedLateBelowAnotherIsReadOnceInOrderThroughEitherInstance() async throws {
        try await Self.withTwoInstances(maxConnections: 2) { a, b in
            guard case .postgres(let storeA) = a.backend else { throw StoreError.corruptRow("instance A is not on PostgreSQL") }
            let revision = try await PostgresIngestStoreTests.switchOn(a)
            let lateBatch = Readings.batch([Readings.wifi(scan: 0), Readings.ble(scan: 0, at: 1), Readings.wifi(scan: 1, at: 2)], revision: revision)
            let neverStored = Readings.batch([Readings.wifi(scan: 2, at: 3)], revision: revision)
            // Another scanner's: a batch completing scans takes its own scanner's switch lock.
            let other = try ScannerID("other")
            _ = try await a.createScanner(NewScanner(id: other), at: Self.now)
            let otherRevision = try await a.updateSwitch(of: other, with: SwitchPatch(scanning: true, storeData: true), at: Self.now).scanSwitch.revision
            // And other emitters: the emitter summary's cells the held transaction wrote are locked.
            let elsewhere = (0 ..< 2).map { index in
                ScanContract.Measurement(
                    time: Readings.start.addingTimeInterval(4 + Double(index)), rssi: -55, scan: 3,
                    observation: .wifi(WiFiObservation(bssid: BSSID(rawValue: 0x02_00_00_00_02_00 + UInt64(index)), ssid: "elsewhere", frequencyMHz: 5180))
                )
            }
            let earlyBatch = Readings.batch(elsewhere, revision: otherRevision, scanner: other)

            // A's group stores its first batch, then holds its transaction open (the coalescer asks
            // whether to stop before each next batch): the late batch's readings have their
            // sequences, not yet committed.
            let (held, hold) = AsyncStream.makeStream(of: Void.self)
            let release = DispatchSemaphore(value: 0)
            let late = Task {
                try await AppDatabase.ingest([(lateBatch, Self.now, nil), (neverStored, Self.now, nil)], stopEarly: {
                    hold.yield()
                    release.wait()
                    return true
                }, on: storeA)
            }
            var holding = held.makeAsyncIterator()
            _ = await holding.next()

            // B commits above them meanwhile: nothing orders the two instances' ingest.
            let early = try await b.ingest(earlyBatch, at: Self.now)
            let earlyLast = try #require(early.lastSequence)
            for reader in [a, b] {
                let slice = try await reader.measurements(matching: MeasurementFilter(), after: 0, limit: 100)
                #expect(slice.items.isEmpty, "the early readings wait until the late ones below them commit")
                #expect(slice.endOfFeed == 0)
                #expect(try await reader.endOfMeasurementFeed() == 0)
                #expect(try await reader.lastBatchContacts(after: 0).lastBatchID == 0, "the batch rows, likewise")
            }

            release.signal()
            let results = try await late.value
            #expect(results.count == 1)
            let lateLast = try #require(try results[0].get().lastSequence)
            #expect(lateLast < earlyLast, "the late readings were given the lower sequences")

            for readers in [[a], [b], [a, b]] {
                for limit in [1, 2, 100] {
                    let seen = try await Self.follow(readers, limit: limit, until: earlyLast).seen
                    #expect(seen.count == 5 && Set(seen).count == 5 && seen == seen.sorted(), "every reading once, in order")
                }
            }
            let slice = try await b.measurements(matching: MeasurementFilter(), after: 0, limit: 100)
            #expect(slice.items.map(\.batchID) == [lateBatch.batchID, lateBatch.batchID, lateBatch.batchID, earlyBatch.batchID, earlyBatch.batchID])
            #expect(Set(try await a.lastBatchContacts(after: 0).contacts.keys) == [ScannerID.default, other])
        }
    }

    /// Transaction IDs are the server's: a transaction held open in another database of the same
    /// server (another application, another test) must not hold this database's feed back.
    @Test func aTransactionHeldOpenInAnotherDatabaseDoesNotHoldTheFeedBack() async throws {
        let (server, strangerName) = try await freshPostgresDatabase()
        let stranger = try await AppDatabase.open(postgres: try PostgresAddress(url: server.url(database: strangerName)), maxConnections: 1)
        guard case .postgres(let strangerStore) = stranger.backend else { throw StoreError.corruptRow("the stranger is not on PostgreSQL") }
        let release = DispatchSemaphore(value: 0)
        do {
            try await Self.withTwoInstances(maxConnections: 1) { a, _ in
                let strangerRevision = try await PostgresIngestStoreTests.switchOn(stranger)
                let held = Readings.batch([Readings.wifi(scan: 0)], revision: strangerRevision)
                let (holding, hold) = AsyncStream.makeStream(of: Void.self)
                let late = Task {
                    try await AppDatabase.ingest([(held, Self.now, nil), (Readings.batch([Readings.wifi(scan: 1)], revision: strangerRevision), Self.now, nil)], stopEarly: {
                        hold.yield()
                        release.wait()
                        return true
                    }, on: strangerStore)
                }
                var waiting = holding.makeAsyncIterator()
                _ = await waiting.next()

                // The stranger's transaction has its ID and is running, below everything this
                // database's ingest is given now.
                let revision = try await PostgresIngestStoreTests.switchOn(a)
                let readings = [Readings.wifi(scan: 0, rssi: -60), Readings.ble(scan: 0, rssi: -70, at: 1)]
                let outcome = try await a.ingest(Readings.batch(readings, revision: revision), at: Self.now)
                let last = try #require(outcome.lastSequence)
                let slice = try await a.measurements(matching: MeasurementFilter(), after: 0, limit: 10)
                #expect(slice.items.map(\.measurement) == readings, "this database's committed readings are read at once")
                #expect(slice.endOfFeed == last)
                #expect(try await a.lastBatchContacts(after: 0).lastBatchID > 0, "the batch rows, likewise")

                release.signal()
                _ = try await late.value
                let strangerSlice = try await stranger.measurements(matching: MeasurementFilter(), after: 0, limit: 10)
                #expect(strangerSlice.items.count == 1, "the stranger's own feed reads its batch once it commits")
            }
        } catch {
            release.signal()
            try await stranger.close()
            throw error
        }
        try await stranger.close()
    }

    @Test func readersFollowingTwoInstancesIngestingConcurrentlyReadEveryReadingOnceInOrder() async throws {
        try await Self.withTwoInstances(maxConnections: 3) { a, b in
            let revision = try await PostgresIngestStoreTests.switchOn(a)
            let batchesPerWriter = 12
            let readingsPerBatch = 10
            let writers = [a, b, a, b].map { instance in
                Task {
                    var last: Int64 = 0
                    for batch in 0 ..< batchesPerWriter {
                        let readings = (0 ..< readingsPerBatch).map { Readings.wifi(scan: batch, rssi: -40 - $0, at: Double($0)) }
                        // No scan completed: no switch lock, so the four run side by side.
                        let upload = MeasurementBatch(
                            batchID: UUID(), scannerID: .default, switchRevision: revision, measurements: readings, scansCompleted: 0
                        )
                        let outcome = try await instance.ingest(upload, at: Self.now)
                        last = max(last, outcome.lastSequence ?? 0)
                    }
                    return last
                }
            }
            // A reader follows while they ingest, then on to the last sequence any of them was given.
            let reader = Task { try await Self.follow([a, b], limit: 7, until: Int64.max) }
            var highest: Int64 = 0
            for writer in writers { highest = max(highest, try await writer.value) }
            reader.cancel()
            let during = try await reader.value
            let after = try await Self.follow([b, a], limit: 7, after: during.cursor, until: highest)
            let seen = during.seen + after.seen
            let total = writers.count * batchesPerWriter * readingsPerBatch
            #expect(seen.count == total && Set(seen).count == total && seen == seen.sorted(), "every reading once, in order")
        }
    }
}
