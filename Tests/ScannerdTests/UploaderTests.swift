import Foundation
import ScanContract
import Testing
@testable import scannerd

/// The uploader against switchd's answers, scripted at the HTTP edge.
@Suite("Uploader")
struct UploaderTests {
    struct Rig {
        let directory: TemporaryDirectory
        let spool: Spool
        let client: ScriptedHTTPClient
        let uploader: Uploader
        var eventLog: EventLogReader { EventLogReader(path: directory.file("events.jsonl")) }

        init(_ respond: @escaping ScriptedHTTPClient.Responder) throws {
            directory = try TemporaryDirectory()
            let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger)
            spool = try makeSpool(in: directory.file("spool"), events: events)
            client = ScriptedHTTPClient(respond)
            uploader = Uploader(
                spool: spool, api: SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client),
                events: events, logger: quietLogger
            )
        }

        /// Seals a batch of `count` measurements under `revision`; returns its ID.
        func seal(count: Int = 2, revision: Int = 1) async throws -> UUID {
            for _ in 0..<count {
                try await spool.append(wifiMeasurement(), revision: revision)
            }
            try await spool.sealOpenBatch()
            return try spool.readyBatches().last!.batchID
        }
    }

    @Test func anAcknowledgedBatchIsDeleted() async throws {
        let rig = try Rig { request, _ in try storedReceipt(for: request) }
        let running = Task { [uploader = rig.uploader] in try await uploader.run() }
        defer { running.cancel() }

        let batchID = try await rig.seal(count: 3)
        try await eventually("the batch to be acknowledged") { try rig.spool.readyBatches().isEmpty }

        #expect(try await rig.client.postedBatchIDs() == [batchID])
        let request = try #require(await rig.client.requests.first)
        #expect(request.url.absoluteString == "http://switchd.invalid:8080/v1/measurements")
        let acked = try rig.eventLog.events("acked")
        #expect(acked.count == 1)
        #expect(acked.first?["batchID"] as? String == batchID.uuidString)
        #expect(acked.first?["stored"] as? Int == 3)
        #expect(acked.first?["duplicate"] as? Bool == false)
    }

    @Test func aServerErrorRetriesTheSameBatch() async throws {
        let rig = try Rig { request, index in
            switch index {
            case 0: return try errorResponse(503, code: "unavailable", message: "restarting")
            case 1: throw URLError(.networkConnectionLost)
            case 2: return try errorResponse(500, code: "internal", message: "database locked")
            default: return try storedReceipt(for: request)
            }
        }
        let batchID = try await rig.seal()
        let start = ContinuousClock.now
        let running = Task { [uploader = rig.uploader] in try await uploader.run() }
        defer { running.cancel() }

        try await eventually("the batch to be acknowledged") { try rig.spool.readyBatches().isEmpty }
        #expect(try await rig.client.postedBatchIDs() == Array(repeating: batchID, count: 4))
        let bodies = await rig.client.requests.map(\.body)
        #expect(Set(bodies).count == 1, "every retry sends the very same batch")
        #expect(ContinuousClock.now - start >= .milliseconds(50 + 100 + 200), "backing off between retries")
        #expect(rig.uploader.counters.uploadRetries.load(ordering: .relaxed) == 3, "every retry counted")
        #expect(try rig.eventLog.events("acked").count == 1)
    }

    @Test func anUnprocessableBatchIsRejectedAndNeverSentAgain() async throws {
        let rig = try Rig { request, index in
            if index == 0 {
                return try errorResponse(422, code: "invalid_field", message: "revision 1 was not scanning", field: "switchRevision")
            }
            return try storedReceipt(for: request)
        }
        let rejectedID = try await rig.seal(revision: 1)
        let nextID = try await rig.seal(revision: 2)
        let running = Task { [uploader = rig.uploader] in try await uploader.run() }
        defer { running.cancel() }

        try await eventually("both batches to be settled") { try rig.spool.readyBatches().isEmpty }
        #expect(try await rig.client.postedBatchIDs() == [rejectedID, nextID], "oldest first; the rejected one once")

        let rejectedFiles = try FileManager.default.contentsOfDirectory(atPath: rig.spool.layout.rejected)
        #expect(rejectedFiles.contains { $0.hasSuffix("\(rejectedID.uuidString).json") })
        #expect(rejectedFiles.contains { $0.hasSuffix("\(rejectedID.uuidString).response.json") })
        let rejected = try rig.eventLog.events("rejected")
        #expect(rejected.count == 1)
        #expect(rejected.first?["batchID"] as? String == rejectedID.uuidString)
        #expect(rejected.first?["status"] as? Int == 422)
        #expect(try rig.eventLog.events("acked").map { $0["batchID"] as? String } == [nextID.uuidString])

        // Later batches go out; the rejected one is never sent again.
        _ = try await rig.seal(revision: 3)
        try await eventually("the third batch to be acknowledged") { try rig.spool.readyBatches().isEmpty }
        #expect(try await rig.client.postedBatchIDs().filter { $0 == rejectedID }.count == 1)
    }

    @Test func aDuplicateReceiptAcknowledgesToo() async throws {
        let rig = try Rig { request, _ in
            let batch = try decodeBatch(request.body!)
            let receipt = BatchReceipt(batchID: batch.batchID, stored: 0, duplicate: true, discarded: false)
            return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(receipt))
        }
        let batchID = try await rig.seal()
        let running = Task { [uploader = rig.uploader] in try await uploader.run() }
        defer { running.cancel() }
        try await eventually("the batch to be acknowledged") { try rig.spool.readyBatches().isEmpty }
        let acked = try rig.eventLog.events("acked")
        #expect(acked.first?["batchID"] as? String == batchID.uuidString)
        #expect(acked.first?["duplicate"] as? Bool == true)
        #expect(acked.first?["stored"] as? Int == 0)
    }

    @Test func statusesAreClassified() throws {
        let receipt = BatchReceipt(batchID: UUID(), stored: 1, duplicate: false, discarded: false)
        let receiptBody = try JSONCoding.encoder().encode(receipt)
        #expect(UploadOutcome(HTTPResponse(status: 201, body: receiptBody)) == .acknowledged(receipt))
        for status in [400, 404, 409, 413, 422] {
            #expect(UploadOutcome(HTTPResponse(status: status, body: Data())) == .rejected(status: status, response: Data()))
        }
        for status in [500, 502, 503, 429, 401] {
            guard case .retry = UploadOutcome(HTTPResponse(status: status, body: Data())) else {
                Issue.record("HTTP \(status) should be retried")
                continue
            }
        }
        guard case .retry = UploadOutcome(HTTPResponse(status: 201, body: Data("<html>".utf8))) else {
            Issue.record("a 201 without a receipt is not an acknowledgement")
            return
        }
    }
}
