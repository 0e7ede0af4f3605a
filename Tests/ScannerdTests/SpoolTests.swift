import Foundation
import ScanContract
import Testing
import Clocks
@testable import scannerd

@Suite("Spool: appending and sealing", .timeLimit(.minutes(1)))
struct SpoolTests {
    @Test func appendedMeasurementsAreInTheJournalAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        let measurements = (0..<3).map { wifiMeasurement(scan: $0) }
        for measurement in measurements {
            await spool.append(measurement, revision: 4)
        }
        let journals = try journalFiles(spool)
        #expect(journals.count == 1)
        #expect(journals[0].contains("_r4_test-scanner.journal"))
        let contents = JournalReader.read(try Data(contentsOf: URL(fileURLWithPath: spool.layout.journals + "/" + journals[0])))
        #expect(contents.measurements == measurements)
        #expect(contents.tornTail == 0)
        #expect(try spool.readyBatches().isEmpty)
    }

    @Test func aFullBatchIsSealed() async throws {
        let directory = try TemporaryDirectory()
        let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger)
        let spool = try makeSpool(in: directory.file("spool"), events: events, batchSize: 3)
        let measurements = (0..<7).map { wifiMeasurement(scan: $0) }
        for measurement in measurements {
            await spool.append(measurement, revision: 2)
        }
        let ready = try spool.decodedReadyBatches()
        #expect(ready.map(\.measurements) == [Array(measurements[0..<3]), Array(measurements[3..<6])])
        #expect(ready.allSatisfy { $0.switchRevision == 2 && $0.scannerID == testScanner })
        #expect(Set(ready.map(\.batchID)).count == 2)
        #expect(try journalFiles(spool).count == 1, "the seventh measurement waits in a new journal")

        let sealed = try EventLogReader(path: directory.file("events.jsonl")).events("sealed")
        #expect(sealed.map { $0["batchID"] as? String } == ready.map { $0.batchID.uuidString })
        #expect(sealed.map { $0["ids"] as? [String] } == ready.map { $0.measurements.map(\.id.uuidString) })
        #expect(sealed.allSatisfy { $0["count"] as? Int == 3 && $0["revision"] as? Int == 2 })
        #expect(sealed.allSatisfy { $0["monotonicNs"] is Int && $0["time"] is String })
    }

    @Test func aRevisionChangeSealsTheOpenBatch() async throws {
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        let first = [wifiMeasurement(), wifiMeasurement()]
        for measurement in first {
            await spool.append(measurement, revision: 5)
        }
        await spool.append(wifiMeasurement(), revision: 6)
        let ready = try spool.decodedReadyBatches()
        #expect(ready.count == 1)
        #expect(ready.first?.switchRevision == 5)
        #expect(ready.first?.measurements == first)
        #expect(try journalFiles(spool).map { $0.contains("_r6_") } == [true])
    }

    @Test func aBatchIsSealedItsAgeAfterItsFirstMeasurement() async throws {
        let directory = try TemporaryDirectory()
        let age = Duration.milliseconds(150)
        let clock = TestClock()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger), batchAge: age, clock: clock)
        let running = Task { try await spool.run() }
        defer { running.cancel() }
        var sealed = spool.readyBatchesArrived.makeAsyncIterator()

        await spool.append(wifiMeasurement(), revision: 1)
        await clock.sleeper() // the spool waiting for the batch's age
        await clock.advance(by: age - .milliseconds(1))
        await spool.append(wifiMeasurement(), revision: 1)
        #expect(try spool.readyBatches().isEmpty, "not yet its age")
        await clock.advance(by: .milliseconds(1))
        _ = await sealed.next()
        #expect(try spool.decodedReadyBatches().map(\.measurements.count) == [2])
        #expect(try journalFiles(spool).isEmpty)
    }

    @Test func writesAndFsyncsRunOnTheSpoolsOwnThread() async throws {
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        #expect(await spool.runsOnItsOwnThread(), "not on Swift's cooperative pool")
        #expect(!SpoolExecutor.isCurrent)
    }

    @Test func stoppingTheSpoolSealsTheOpenBatch() async throws {
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        let running = Task { try await spool.run() }
        await spool.append(wifiMeasurement(), revision: 3)
        running.cancel()
        try await running.value
        #expect(try spool.decodedReadyBatches().map(\.measurements.count) == [1])
        #expect(try journalFiles(spool).isEmpty)
    }

    @Test func aSealedBatchSurvivesARestart() async throws {
        let directory = try TemporaryDirectory()
        let measurements = [wifiMeasurement(), wifiMeasurement(rssi: -70)]
        var sealedID: UUID?
        do {
            let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
            for measurement in measurements {
                await spool.append(measurement, revision: 9)
            }
            try await spool.sealOpenBatch()
            sealedID = try spool.readyBatches().first?.batchID
        }
        let reopened = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        let ready = try reopened.decodedReadyBatches()
        #expect(ready.count == 1)
        #expect(ready.first?.batchID == sealedID)
        #expect(ready.first?.measurements == measurements)
        #expect(ready.first?.switchRevision == 9)
    }

    @Test func readyBatchesComeOldestFirstAcrossRestarts() async throws {
        let directory = try TemporaryDirectory()
        var order: [UUID] = []
        do {
            let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
            for revision in 1...3 {
                await spool.append(wifiMeasurement(), revision: revision)
                try await spool.sealOpenBatch()
                order.append(try spool.readyBatches().last!.batchID)
            }
        }
        let reopened = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        for revision in 4...5 {
            await reopened.append(wifiMeasurement(), revision: revision)
            try await reopened.sealOpenBatch()
            order.append(try reopened.readyBatches().last!.batchID)
        }
        #expect(Set(order).count == 5)
        #expect(try reopened.readyBatches().map(\.batchID) == order)
        #expect(try reopened.decodedReadyBatches().map(\.switchRevision) == [1, 2, 3, 4, 5])
    }

    @Test func aRejectedBatchMovesAsideWithTheAnswerAndIsNeverReady() async throws {
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        await spool.append(wifiMeasurement(), revision: 2)
        try await spool.sealOpenBatch()
        let batch = try #require(try spool.readyBatches().first)
        let original = try await spool.body(of: batch)
        let answer = Data(#"{"error":{"code":"invalid_field","field":"switchRevision","message":"not scanning"}}"#.utf8)

        try await spool.reject(batch, status: 422, response: answer)

        #expect(try spool.readyBatches().isEmpty)
        let kept = try Data(contentsOf: URL(fileURLWithPath: spool.layout.rejected(batch.name)))
        #expect(kept == original)
        let record = try JSONCoding.decoder().decode(
            RejectionRecord.self, from: Data(contentsOf: URL(fileURLWithPath: spool.layout.rejectionResponse(batch.name)))
        )
        #expect(record.batchID == batch.batchID)
        #expect(record.status == 422)
        #expect(record.response == String(decoding: answer, as: UTF8.self))

        let reopened = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        #expect(try reopened.readyBatches().isEmpty, "a rejected batch is not sent again after a restart")
        #expect(FileManager.default.fileExists(atPath: reopened.layout.rejected(batch.name)))
    }

    @Test func acknowledgingDeletesTheReadyFile() async throws {
        let directory = try TemporaryDirectory()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        await spool.append(wifiMeasurement(), revision: 2)
        try await spool.sealOpenBatch()
        let batch = try #require(try spool.readyBatches().first)
        try await spool.acknowledge(batch)
        #expect(try spool.readyBatches().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: batch.path))
    }
}
