import Clocks
import Foundation
import ScanContract
import Synchronization
import Testing
@testable import scannerd

/// The uploader over real HTTP against a server that is not switchd, or a switchd that lies:
/// nothing is given up but on switchd's own refusal of that batch, nothing deleted but on its
/// own receipt.
@Suite("Uploader against a hostile server", .timeLimit(.minutes(1)))
struct UploaderHostileServerTests {
    struct Rig {
        let directory: TemporaryDirectory
        let spool: Spool
        let server: LoopbackHTTPServer
        let uploader: Uploader
        /// Every event, as it is recorded.
        let tap = EventTap()
        var eventLog: EventLogReader { EventLogReader(path: directory.file("events.jsonl")) }

        /// `reply` answers each upload, given its batch and how many came before.
        init(_ reply: @escaping @Sendable (MeasurementBatch, Int) -> LoopbackHTTPServer.Reply) throws {
            directory = try TemporaryDirectory()
            let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger, tap: tap.record)
            spool = try makeSpool(in: directory.file("spool"), events: events)
            let count = Mutex(0)
            server = try LoopbackHTTPServer(replying: { request in
                let index = count.withLock { count in
                    defer { count += 1 }
                    return count
                }
                do {
                    return reply(try decodeBatch(request.body), index)
                } catch {
                    return .answer(status: 400, body: Data("not a batch".utf8))
                }
            })
            let api = SwitchdAPI(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, client: CurlHTTPClient())
            uploader = Uploader(spool: spool, api: api, events: events, logger: quietLogger, clock: ImmediateClock())
        }

        func seal() async throws -> UUID {
            await spool.append(wifiMeasurement(), revision: 1)
            try await spool.sealOpenBatch()
            return try spool.readyBatches().last!.batchID
        }

        /// The uploader, running until the test stops it (``Task/stopped()``).
        func startUploading() -> Task<Void, any Error> {
            Task { [uploader] in try await uploader.run() }
        }

        var postedBatchIDs: [UUID] {
            get throws { try server.requests.map { try decodeBatch($0.body).batchID } }
        }

        var rejectedFiles: [String] {
            get throws { try FileManager.default.contentsOfDirectory(atPath: spool.layout.rejected) }
        }
    }

    @Test func proxyPagesConflictsAndWrongReceiptsAreRetriedNotRejectedOrDeleted() async throws {
        let rig = try Rig { batch, index in
            switch index {
            case 0: .answer(status: 404, body: Data("<html><body><h1>404 Not Found</h1>nginx</body></html>".utf8))
            case 1: .answer(status: 409, body: json(APIErrorBody(code: "conflict", message: "try later")))
            case 2: .answer(status: 413, body: Data("Request Entity Too Large".utf8))
            case 3: .answer(status: 422, body: json(APIErrorBody(code: "invalid_field", message: "no", batchID: UUID())))
            case 4: .answer(status: 201, body: json(BatchReceipt(batchID: UUID(), stored: 1, duplicate: false, discarded: false)))
            default: receipt(for: batch)
            }
        }
        defer { rig.server.stop() }
        let batchID = try await rig.seal()
        let uploading = rig.startUploading()
        defer { uploading.cancel() }

        await rig.tap.settled(batchID)
        try await uploading.stopped()
        #expect(try rig.spool.readyBatches().isEmpty, "deleted on its own receipt")
        #expect(try rig.postedBatchIDs == Array(repeating: batchID, count: 6))
        #expect(try rig.rejectedFiles.isEmpty, "nothing given up")
        #expect(rig.uploader.counters.uploadRetries.load(ordering: .relaxed) == 5)
        #expect(try rig.eventLog.events("acked").map { $0["batchID"] as? String } == [batchID.uuidString])
    }

    @Test func switchdsRefusalOfThatBatchRejectsItUntilRequeued() async throws {
        let rig = try Rig { batch, index in
            guard index > 0 else {
                let refusal = APIErrorBody(code: "invalid_field", message: "revision 1 was not scanning", field: "switchRevision", batchID: batch.batchID)
                return .answer(status: 422, body: json(refusal))
            }
            return receipt(for: batch)
        }
        defer { rig.server.stop() }
        let batchID = try await rig.seal()
        let uploading = rig.startUploading()
        defer { uploading.cancel() }

        await rig.tap.settled(batchID)
        try await uploading.stopped()
        #expect(try rig.spool.readyBatches().isEmpty)
        #expect(try rig.rejectedFiles.sorted().map { $0.hasSuffix(".response.json") } == [false, true])

        let requeued = try rig.spool.layout.requeueRejected()
        #expect(requeued.map(\.batchID) == [batchID])
        #expect(try rig.rejectedFiles.isEmpty)
        #expect(try rig.spool.readyBatches().map(\.batchID) == [batchID])

        let again = rig.startUploading()
        defer { again.cancel() }
        await rig.tap.first { if case .acked(batchID, _, _) = $0 { true } else { false } }
        try await again.stopped()
        #expect(try rig.spool.readyBatches().isEmpty)
        #expect(try rig.postedBatchIDs == [batchID, batchID])
        #expect(try rig.eventLog.events("acked").map { $0["batchID"] as? String } == [batchID.uuidString])
    }

    @Test func requeueRefusesWhileScannerdHoldsTheStateDirectory() throws {
        let directory = try TemporaryDirectory()
        let lock = try DirectoryLock(path: ScannerdConfiguration.lockPath(in: directory.path))
        defer { withExtendedLifetime(lock) {} }
        let command = try SpoolRequeueCommand.parse(["--state-dir", directory.path])
        #expect(throws: (any Error).self) { try command.run() }
    }
}

private func json(_ value: some Encodable) -> Data {
    try! JSONCoding.encoder().encode(value)
}

/// switchd's answer to a new batch: 201 with a receipt for all of it.
private func receipt(for batch: MeasurementBatch) -> LoopbackHTTPServer.Reply {
    .answer(status: 201, body: json(BatchReceipt(batchID: batch.batchID, stored: batch.measurements.count, duplicate: false, discarded: false)))
}
