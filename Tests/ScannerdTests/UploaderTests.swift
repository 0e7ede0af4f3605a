import Foundation
import ScanContract
import Synchronization
import Testing
import Clocks
@testable import scannerd

/// The uploader against switchd's answers, scripted at the HTTP edge.
@Suite("Uploader", .timeLimit(.minutes(1)))
struct UploaderTests {
    struct Rig {
        let directory: TemporaryDirectory
        let spool: Spool
        let client: ScriptedHTTPClient
        let uploader: Uploader
        /// Every event, as it is recorded.
        let tap = EventTap()
        var eventLog: EventLogReader { EventLogReader(path: directory.file("events.jsonl")) }

        /// - Parameter clock: times the backoff; retries come at once unless a test clock is given.
        init(clock: any Clock<Duration> = ImmediateClock(), _ respond: @escaping ScriptedHTTPClient.Responder) throws {
            directory = try TemporaryDirectory()
            let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger, tap: tap.record)
            spool = try makeSpool(in: directory.file("spool"), events: events)
            client = ScriptedHTTPClient(respond)
            uploader = Uploader(
                spool: spool, api: SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client),
                events: events, logger: quietLogger, clock: clock
            )
        }

        /// Seals a batch of `count` measurements under `revision`; returns its ID.
        func seal(count: Int = 2, revision: Int = 1) async throws -> UUID {
            for _ in 0..<count {
                await spool.append(wifiMeasurement(), revision: revision)
            }
            try await spool.sealOpenBatch()
            return try spool.readyBatches().last!.batchID
        }

        /// The uploader, running until the test stops it (``Task/stopped()``).
        func startUploading() -> Task<Void, any Error> {
            Task { [uploader] in try await uploader.run() }
        }
    }

    @Test func anAcknowledgedBatchIsDeleted() async throws {
        let rig = try Rig { request, _ in try storedReceipt(for: request) }
        let uploading = rig.startUploading()
        defer { uploading.cancel() }

        let batchID = try await rig.seal(count: 3)
        await rig.tap.settled(batchID)
        try await uploading.stopped()

        #expect(try rig.spool.readyBatches().isEmpty)
        #expect(try await rig.client.postedBatchIDs() == [batchID])
        let request = try #require(await rig.client.requests.first)
        #expect(request.url.absoluteString == "http://switchd.invalid:8080/v1/measurements")
        let acked = try rig.eventLog.events("acked")
        #expect(acked.count == 1)
        #expect(acked.first?["batchID"] as? String == batchID.uuidString)
        #expect(acked.first?["stored"] as? Int == 3)
        #expect(acked.first?["duplicate"] as? Bool == false)
    }

    @Test func aServerErrorRetriesTheSameBatchAfterABackoff() async throws {
        let clock = TestClock()
        let start = clock.now
        let sentAt = Mutex<[Duration]>([])
        let rig = try Rig(clock: clock) { request, index in
            sentAt.withLock { $0.append(start.duration(to: clock.now)) }
            switch index {
            case 0: return try errorResponse(503, code: "unavailable", message: "restarting")
            case 1: throw URLError(.networkConnectionLost)
            case 2: return try errorResponse(500, code: "internal", message: "database locked")
            default: return try storedReceipt(for: request)
            }
        }
        let batchID = try await rig.seal()
        let uploading = rig.startUploading()
        defer { uploading.cancel() }

        // Time moves only here, 10 ms at a time, until the next attempt goes out.
        for attempt in 1...3 {
            await clock.step(by: .milliseconds(10)) { await rig.client.requests.count > attempt }
        }
        await rig.tap.settled(batchID)
        try await uploading.stopped()
        #expect(try rig.spool.readyBatches().isEmpty)
        #expect(try await rig.client.postedBatchIDs() == Array(repeating: batchID, count: 4))
        let bodies = await rig.client.requests.map(\.body)
        #expect(Set(bodies).count == 1, "every retry sends the very same batch")
        let times = sentAt.withLock { $0 }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.count == 3)
        for (gap, least) in zip(gaps, [Duration.milliseconds(50), .milliseconds(100), .milliseconds(200)]) {
            #expect(gap >= least, "backing off between retries, doubling (upper half of 100, 200, 400 ms)")
        }
        #expect(rig.uploader.counters.uploadRetries.load(ordering: .relaxed) == 3, "every retry counted")
        #expect(try rig.eventLog.events("acked").count == 1)
    }

    /// switchd's answer to a full ingest queue (and a proxy's 429) names its wait: the batch goes
    /// again only once that much time has passed, not after the 100 ms first backoff.
    @Test(arguments: [503, 429])
    func aBusyAnswerWithRetryAfterIsSentAgainAfterThatWait(_ status: Int) async throws {
        let clock = TestClock()
        let start = clock.now
        let sentAt = Mutex<[Duration]>([])
        let rig = try Rig(clock: clock) { request, index in
            sentAt.withLock { $0.append(start.duration(to: clock.now)) }
            guard index > 0 else {
                return try errorResponse(status, code: "busy", message: "queue full", headers: ["retry-after": "3"])
            }
            return try storedReceipt(for: request)
        }
        let batchID = try await rig.seal()
        let uploading = rig.startUploading()
        defer { uploading.cancel() }

        await clock.step(by: .milliseconds(250)) { await rig.client.requests.count > 1 }
        await rig.tap.settled(batchID)
        try await uploading.stopped()
        let times = sentAt.withLock { $0 }
        #expect(times.count == 2)
        #expect(times[1] - times[0] >= .seconds(3), "sent again after \(times[1] - times[0])")
        #expect(try rig.eventLog.events("acked").count == 1)
    }

    /// A batch's telemetry goes first to `POST /v1/sightings`: a server error is retried, a
    /// refusal is logged and dropped, and the measurements go all the same, without it.
    @Test func aBatchsTelemetryIsPostedFirstAndARefusalDoesNotHoldTheMeasurements() async throws {
        let rig = try Rig { request, index in
            switch (request.url.path, index) {
            case ("/v1/sightings", 0): return try errorResponse(500, code: "internal", message: "database locked")
            case ("/v1/sightings", _): return try errorResponse(422, code: "invalid_field", message: "too old", field: "telemetry[0].heardAt")
            default: return try storedReceipt(for: request)
            }
        }
        let report = HeardTelemetry(
            identity: SpoolTelemetryTests.beacon, heardAt: Date(timeIntervalSince1970: 1_795_000_000), batteryMillivolts: 2400,
            temperatureCelsius: nil, advertisementCount: 1, uptimeSeconds: 1
        )
        await rig.spool.append([wifiMeasurement(), wifiMeasurement()], telemetry: [report], revision: 1)
        try await rig.spool.sealOpenBatch()
        let batchID = try #require(rig.spool.readyBatches().last).batchID
        let uploading = rig.startUploading()
        defer { uploading.cancel() }
        await rig.tap.settled(batchID)
        try await uploading.stopped()

        let requests = await rig.client.requests
        #expect(requests.map(\.url.path) == ["/v1/sightings", "/v1/sightings", "/v1/measurements"])
        let posted = try JSONCoding.decoder().decode(SightingBatch.self, from: try #require(requests[0].body))
        #expect(posted.sightings.isEmpty && posted.telemetry == [report] && posted.scannerID == testScanner)
        #expect(!String(decoding: try #require(requests[2].body), as: UTF8.self).contains("telemetry"))
        #expect(try rig.eventLog.events("acked").count == 1)
    }

    @Test func retryAfterIsReadOnlyOnBusyAnswersAndCapped() throws {
        let batchID = UUID()
        let capped = UploadOutcome(try errorResponse(503, code: "busy", message: "", headers: ["retry-after": "86400"]), for: batchID)
        #expect(capped == .busy(retryAfter: UploadOutcome.maximumRetryAfter, reason: try #require(capped.reason)))
        let date = UploadOutcome(try errorResponse(503, code: "busy", message: "", headers: ["retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"]), for: batchID)
        #expect(date.reason != nil && date.isPlainRetry, "an HTTP date falls back to the backoff")
        let server = UploadOutcome(try errorResponse(500, code: "internal", message: "", headers: ["retry-after": "3"]), for: batchID)
        #expect(server.isPlainRetry)
    }

    @Test func aReceiptForAnotherBatchDeletesNothingAndIsRetried() async throws {
        let rig = try Rig { request, index in
            guard index >= 2 else {
                let wrong = BatchReceipt(batchID: UUID(), stored: 2, duplicate: false, discarded: false)
                return HTTPResponse(status: 201, body: try JSONCoding.encoder().encode(wrong))
            }
            return try storedReceipt(for: request)
        }
        let batchID = try await rig.seal()
        let uploading = rig.startUploading()
        defer { uploading.cancel() }

        await rig.tap.settled(batchID)
        try await uploading.stopped()
        #expect(try rig.spool.readyBatches().isEmpty, "deleted on its own receipt")
        #expect(try await rig.client.postedBatchIDs() == [batchID, batchID, batchID], "kept and sent again after each wrong receipt")
        #expect(rig.uploader.counters.uploadRetries.load(ordering: .relaxed) == 2, "each wrong receipt counted")
        #expect(try rig.eventLog.events("acked").map { $0["batchID"] as? String } == [batchID.uuidString])
    }

    @Test func anUnprocessableBatchIsRejectedAndNeverSentAgain() async throws {
        let rig = try Rig { request, index in
            if index == 0 {
                return try errorResponse(
                    422, code: "invalid_field", message: "revision 1 was not scanning", field: "switchRevision",
                    batchID: decodeBatch(request.body!).batchID
                )
            }
            return try storedReceipt(for: request)
        }
        let rejectedID = try await rig.seal(revision: 1)
        let nextID = try await rig.seal(revision: 2)
        let uploading = rig.startUploading()
        defer { uploading.cancel() }

        await rig.tap.settled(nextID)
        #expect(try await rig.client.postedBatchIDs() == [rejectedID, nextID], "oldest first; the rejected one once")

        // Later batches go out; the rejected one is never sent again.
        let thirdID = try await rig.seal(revision: 3)
        await rig.tap.settled(thirdID)
        try await uploading.stopped()
        #expect(try rig.spool.readyBatches().isEmpty)
        #expect(try await rig.client.postedBatchIDs() == [rejectedID, nextID, thirdID])

        let rejectedFiles = try FileManager.default.contentsOfDirectory(atPath: rig.spool.layout.rejected)
        #expect(rejectedFiles.contains { $0.hasSuffix("\(rejectedID.uuidString).json") })
        #expect(rejectedFiles.contains { $0.hasSuffix("\(rejectedID.uuidString).response.json") })
        let rejected = try rig.eventLog.events("rejected")
        #expect(rejected.count == 1)
        #expect(rejected.first?["batchID"] as? String == rejectedID.uuidString)
        #expect(rejected.first?["status"] as? Int == 422)
        #expect(try rig.eventLog.events("acked").map { $0["batchID"] as? String } == [nextID.uuidString, thirdID.uuidString])
    }

    @Test func aDuplicateReceiptAcknowledgesToo() async throws {
        let rig = try Rig { request, _ in
            let batch = try decodeBatch(request.body!)
            let receipt = BatchReceipt(batchID: batch.batchID, stored: 0, duplicate: true, discarded: false)
            return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(receipt))
        }
        let batchID = try await rig.seal()
        let uploading = rig.startUploading()
        defer { uploading.cancel() }
        await rig.tap.settled(batchID)
        try await uploading.stopped()
        #expect(try rig.spool.readyBatches().isEmpty)
        let acked = try rig.eventLog.events("acked")
        #expect(acked.first?["batchID"] as? String == batchID.uuidString)
        #expect(acked.first?["duplicate"] as? Bool == true)
        #expect(acked.first?["stored"] as? Int == 0)
    }

    @Test func onlyARefusalNamingTheBatchRejectsIt() throws {
        let batchID = UUID()
        let receipt = BatchReceipt(batchID: batchID, stored: 1, duplicate: false, discarded: false)
        let receiptBody = try JSONCoding.encoder().encode(receipt)
        #expect(UploadOutcome(HTTPResponse(status: 201, body: receiptBody), for: batchID) == .acknowledged(receipt))
        for status in [400, 409, 413, 422] {
            let refusal = try errorResponse(status, code: "invalid_field", message: "no", batchID: batchID)
            #expect(UploadOutcome(refusal, for: batchID) == .rejected(status: status, response: refusal.body))
        }
        let retried: [(String, HTTPResponse)] = [
            ("a proxy's 404 page", HTTPResponse(status: 404, body: Data("<html><h1>Not Found</h1></html>".utf8))),
            ("a 404 without a batch", try errorResponse(404, code: "not_found", message: "no such resource")),
            ("a 409 without a batch", try errorResponse(409, code: "conflict", message: "busy")),
            ("a 413 from a proxy", HTTPResponse(status: 413, body: Data("Request Entity Too Large".utf8))),
            ("a 422 naming another batch", try errorResponse(422, code: "invalid_field", message: "no", batchID: UUID())),
            ("a 500 naming the batch", try errorResponse(500, code: "internal", message: "no", batchID: batchID)),
            ("a 502", HTTPResponse(status: 502, body: Data())),
            ("a 429", HTTPResponse(status: 429, body: Data())),
            ("a 401", HTTPResponse(status: 401, body: Data())),
            ("a 201 without a receipt", HTTPResponse(status: 201, body: Data("<html>".utf8))),
            ("a 201 with another batch's receipt", HTTPResponse(status: 201, body: try JSONCoding.encoder().encode(
                BatchReceipt(batchID: UUID(), stored: 1, duplicate: false, discarded: false)
            ))),
        ]
        for (what, response) in retried {
            guard case .retry = UploadOutcome(response, for: batchID) else {
                Issue.record("\(what) should be retried")
                continue
            }
        }
    }
}

extension UploadOutcome {
    /// Why it is to be sent again, for either kind of retry.
    var reason: String? {
        switch self {
        case .retry(let reason), .busy(_, let reason): reason
        case .acknowledged, .rejected: nil
        }
    }

    var isPlainRetry: Bool {
        if case .retry = self { return true }
        return false
    }
}
