import Clocks
import Foundation
import Logging
import ScanContract
import Testing
@testable import scannerd

/// `--spool-max-bytes`: what a full spool drops, how it counts it, and how often it says so.
@Suite("Spool: bounded size")
struct SpoolBoundTests {
    /// One ``wifiMeasurement()`` line in a journal, newline included.
    static let lineBytes = MeasurementLine.encode(wifiMeasurement()).count + 1

    static func locate(_ revision: Int) -> ScanSwitch {
        ScanSwitch(scannerID: testScanner, scanning: true, mode: .locate, revision: revision, changedAt: Date())
    }

    static func survey(_ revision: Int) -> ScanSwitch {
        ScanSwitch(scannerID: testScanner, scanning: true, mode: .survey, locationID: 1, revision: revision, changedAt: Date())
    }

    @Test func aFullSpoolDropsNewReadingsCountsThemAndStaysWithinItsBound() async throws {
        let directory = try TemporaryDirectory()
        let counters = ScannerdCounters()
        let maxBytes = 10 * Self.lineBytes + Self.lineBytes / 2
        let spool = try makeSpool(
            in: directory.path, events: .disabled(logger: quietLogger), batchSize: 4, maxBytes: maxBytes, counters: counters
        )
        await spool.describe(Self.survey(1))
        for _ in 0..<25 {
            await spool.append(wifiMeasurement(), revision: 1)
        }
        try await spool.sealOpenBatch()

        let kept = try spool.decodedReadyBatches().map(\.measurements.count).reduce(0, +)
        let dropped = counters.droppedReadings.load(ordering: .relaxed)
        #expect((8...10).contains(kept), "as many as fit in \(maxBytes) bytes with the batches' JSON around them")
        #expect(dropped == 25 - kept, "every reading kept or counted")
        #expect(counters.snapshot(spoolDepth: 0).droppedReadings == dropped, "reported to switchd")
        let onDisk = try spool.readyBatches().map { try FileSystem.size(of: $0.path) }.reduce(0, +)
        #expect(await spool.budget.usedBytes == onDisk)
        #expect(onDisk <= maxBytes + Self.lineBytes, "over the bound by at most one sealed batch's JSON around its lines")
    }

    @Test func theOldestLocateBatchesGoFirstAndSurveyBatchesStay() async throws {
        let directory = try TemporaryDirectory()
        let counters = ScannerdCounters()
        let spool = try makeSpool(
            in: directory.path, events: .disabled(logger: quietLogger), batchSize: 2, maxBytes: 14 * Self.lineBytes, counters: counters
        )
        await spool.describe(Self.survey(1))
        await spool.append(wifiMeasurement(rssi: -41), revision: 1)
        await spool.append(wifiMeasurement(rssi: -41), revision: 1)
        await spool.describe(Self.locate(2))
        for _ in 0..<4 {
            await spool.append(wifiMeasurement(rssi: -42), revision: 2)
        }
        await spool.describe(Self.survey(3))
        for _ in 0..<8 {
            await spool.append(wifiMeasurement(rssi: -43), revision: 3)
        }
        try await spool.sealOpenBatch()

        let ready = try spool.decodedReadyBatches()
        #expect(ready.first?.switchRevision == 1, "the older survey batch stays")
        #expect(ready.filter { $0.switchRevision == 3 }.map(\.measurements.count).reduce(0, +) == 8, "every new survey reading kept")
        let dropped = counters.droppedReadings.load(ordering: .relaxed)
        let locateKept = ready.filter { $0.switchRevision == 2 }.map(\.measurements.count).reduce(0, +)
        #expect(dropped > 0 && dropped + locateKept == 4, "only locate readings dropped, whole batches, oldest first")
        #expect(try spool.readyBatches().map { try FileSystem.size(of: $0.path) }.reduce(0, +) <= 15 * Self.lineBytes)
    }

    @Test func dropsAreLoggedOncePerIntervalWithTheirCount() async throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let log = RecordingLogHandler()
        let spool = try makeSpool(
            in: directory.path, events: .disabled(logger: quietLogger), maxBytes: 2 * Self.lineBytes, clock: clock, logger: log.logger
        )
        for _ in 0..<500 {
            await spool.append(wifiMeasurement(), revision: 1)
        }
        await clock.advance(by: Spool.failureLogInterval)
        await spool.append(wifiMeasurement(), revision: 1)
        for _ in 0..<100 {
            await spool.append(wifiMeasurement(), revision: 1)
        }

        let drops = log.lines.filter { $0.message.hasPrefix("readings dropped") }
        #expect(drops.map { $0.metadata["dropped"]?.description } == ["1", "498"], "2 kept; one line at once, one a minute later")
        #expect(drops.allSatisfy { $0.level == .error && "\($0.metadata["reason"] ?? "")".contains("spool is full") })
    }

    @Test func aReopenedSpoolCountsWhatItAlreadyHolds() async throws {
        let directory = try TemporaryDirectory()
        do {
            let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
            for _ in 0..<3 {
                await spool.append(wifiMeasurement(), revision: 1)
            }
        }
        // The journal left open is sealed on opening; its bytes count against the bound.
        let reopened = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        let onDisk = try reopened.readyBatches().map { try FileSystem.size(of: $0.path) }.reduce(0, +)
        #expect(onDisk > 3 * Self.lineBytes)
        #expect(await reopened.budget.usedBytes == onDisk)
    }
}
