import Foundation
import Harness
import ScanContract
import Testing

/// Two real `switchd` processes on one real PostgreSQL server, as behind a load balancer
/// (docs/scale-out.md): a flip PATCHed on A reaches the long-poll B holds, readings posted to A
/// reach the live feed B serves, the survey and tags made through either are read through the other, a tag's
/// window posted half to A and half to B has one position, a route
/// not on PostgreSQL yet answers 501, and A SIGKILLed while batches pour in loses none that was
/// answered 2xx (the uploads it dropped are sent again to B, as a balancer and scannerd's spool
/// would). The other then stops cleanly on SIGTERM.
@Suite(
    "End to end: two switchd on one PostgreSQL",
    .enabled(if: PostgresServer.isInstalled, Comment(rawValue: PostgresServer.missing ?? "")), .serialized
)
struct PostgresTwoInstanceTests {
    static let scanner = "hall-1"

    @Test func twoInstancesServeOneFleetAndAKilledOneLosesNothingAcknowledged() async throws {
        let server = try await PostgresServer()
        let folder = try TemporaryFolder("two-instances")
        do {
            try await server.createDatabase("fleet")
            try await Self.run(server: server, folder: folder)
        } catch {
            folder.remove()
            await server.remove()
            throw error
        }
        folder.remove()
        await server.remove()
    }

    private static func run(server: PostgresServer, folder: TemporaryFolder) async throws {
        let tokenFile = try writeTokenFile("fst_\(UUID().uuidString)", in: folder, label: "admin")
        let database = ["--database", server.url(database: "fleet"), "--log-level", "debug"]
        let a = try await SwitchdInstance.start(in: folder, arguments: database, label: "switchd-a", stateName: "a", adminTokenFile: tokenFile)
        defer { a.process.signal(SIGKILL) }
        let b = try await SwitchdInstance.start(in: folder, arguments: database, label: "switchd-b", stateName: "b", adminTokenFile: tokenFile)
        defer { b.process.signal(SIGKILL) }

        // The survey and tags made through either are the other's too.
        let floor = try await a.adminClient().call("POST", "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
        let room = try await b.adminClient().call("POST", "/v1/rooms", json: NewRoom(floorID: floor.id, name: "Hall"), as: Room.self)
        #expect(try await a.adminClient().call("GET", "/v1/rooms?floor=\(floor.id)", as: [Room].self) == [room])
        let tag = try await b.adminClient().call(
            "POST", "/v1/tags", json: NewTag(name: "bike", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_11_22))), as: ScanContract.Tag.self
        )
        #expect(try await a.adminClient().call("GET", "/v1/tags", as: Page<ScanContract.Tag>.self).items == [tag])
        let tagEvents = try await a.adminClient().send("GET", "/v1/tags/\(tag.id)/events")
        #expect(tagEvents.status == 200, "\(tagEvents.status) \(tagEvents.text)")
        try await locateOnceAcross(a, b, tag: tag, floorID: floor.id)

        // The scanner is registered through A, its token issued through B.
        _ = try await a.adminClient().call("POST", "/v1/scanners", json: NewScanner(id: try ScannerID(scanner)), as: ScanContract.Scanner.self)
        let token = try await b.issueScannerToken(scanner, name: "hall-1 on b")
        let scannerOnB = APIClient(baseURL: b.baseURL, token: token)
        let scannerOnA = APIClient(baseURL: a.baseURL, token: token)

        // A flip on A reaches the long-poll held by B.
        let before = try await scannerOnB.scanSwitch(scanner)
        let held = Task {
            try await scannerOnB.call("GET", "/v1/scanners/\(scanner)/switch?revision=\(before.revision)&wait=50", as: ScanSwitch.self)
        }
        _ = try await b.process.waitForLogLine { $0.contains("Long-poll waiting") }
        let flipped = try await a.adminClient().patchSwitch(SwitchPatch(scanning: true, storeData: true), scanner: scanner)
        let arrived = try await held.value
        #expect(arrived.revision == flipped.revision && arrived.scanning, "the long-poll on B answered \(arrived), not the flip made on A")

        // Readings posted to A reach the live feed B serves. The feed starts after sequence 0, not
        // "from now": the client opens it in the background, and under load the upload can be
        // stored before B fixes what "now" is.
        let feedURL = b.baseURL.appendingPathComponent("v1/measurements/stream").appending(queryItems: [URLQueryItem(name: "after", value: "0")])
        let feed = EventStreamClient(url: feedURL, token: b.adminToken)
        defer { feed.close() }
        let first = try await upload(batch(revision: flipped.revision, readings: 3), to: scannerOnA)
        #expect(first == 201)
        _ = try await feed.waitForEvents(3)
        // B's feed has caught up and waits; these arrive only through A's notification.
        #expect(try await upload(batch(revision: flipped.revision, readings: 2), to: scannerOnA) == 201)
        let events = try await feed.waitForEvents(5)
        #expect(events.count == 5)

        // Uploads alternate between A and B; A is SIGKILLed mid-load. An upload that got no answer
        // goes to B with the same batch; every batch answered 2xx must be stored afterwards.
        let acknowledged = AcknowledgedBatches()
        let killAfter = 12
        let workers = 4
        let batchesPerWorker = 15
        let killer = Task {
            await acknowledged.waitForViaA(killAfter)
            await a.process.kill()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0 ..< workers {
                group.addTask {
                    for index in 0 ..< batchesPerWorker {
                        let next = batch(revision: flipped.revision, readings: 50)
                        let first = (worker + index).isMultiple(of: 2) ? scannerOnA : scannerOnB
                        if let status = try? await upload(next, to: first), (200 ..< 300).contains(status) {
                            await acknowledged.add(next, viaA: first.baseURL == a.baseURL)
                            continue
                        }
                        let status = try await upload(next, to: scannerOnB)
                        guard (200 ..< 300).contains(status) else { throw HarnessError("B answered \(status) to a batch") }
                        await acknowledged.add(next, viaA: false)
                    }
                }
            }
            try await group.waitForAll()
        }
        await acknowledged.finish()
        await killer.value
        #expect(!a.process.isRunning)
        #expect(await acknowledged.viaA >= killAfter)

        let stored = try await b.adminClient().allMeasurements(query: "scanner=\(scanner)")
        let storedIDs = Set(stored.map(\.measurement.id))
        #expect(storedIDs.count == stored.count, "a reading was stored twice")
        let batches = await acknowledged.batches
        #expect(batches.count == workers * batchesPerWorker)
        let missing = batches.flatMap(\.measurements).filter { !storedIDs.contains($0.id) }
        #expect(missing.isEmpty, "\(missing.count) readings of acknowledged batches are not stored")

        // The instance left stops cleanly on SIGTERM, its connections to PostgreSQL closed.
        #expect(await b.process.terminate() == 0, "\(b.process.stderrTail())")
    }

    /// Four fixed scanners post one window of the tag, half to A and half to B; a later window
    /// posted to both closes it on both at once (or each closed it on its clock already, should
    /// this machine be that slow). The window has one position in the feed, located from all
    /// four, and any instance that answers with a position of it answers with that one.
    private static func locateOnceAcross(_ a: SwitchdInstance, _ b: SwitchdInstance, tag: ScanContract.Tag, floorID: Int64) async throws {
        let corners = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
        let end = Date(timeIntervalSince1970: 1_800_000_000)
        for (index, corner) in corners.enumerated() {
            _ = try await a.adminClient().call("POST", "/v1/scanners", json: NewScanner(id: try ScannerID("fixed-\(index)")), as: ScanContract.Scanner.self)
            _ = try await b.adminClient().call(
                "PUT", "/v1/scanners/fixed-\(index)/placement", json: NewScannerPlacement(floorID: floorID, x: corner.0, y: corner.1, height: 2.5),
                as: ScannerPlacement.self
            )
        }
        func post(_ index: Int, after seconds: TimeInterval, to instance: SwitchdInstance) async throws -> SightingReceipt {
            let corner = corners[index]
            let rssi = -59 - 20 * log10(((corner.0 - 3) * (corner.0 - 3) + (corner.1 - 4) * (corner.1 - 4) + 1.5 * 1.5).squareRoot())
            let windowEnd = end.addingTimeInterval(seconds)
            let sighting = Sighting(
                identity: tag.identity, windowStart: windowEnd.addingTimeInterval(-1), windowEnd: windowEnd, count: 5, medianRSSI: rssi, maxRSSI: Int(rssi) + 2
            )
            let batch = SightingBatch(scannerID: try ScannerID("fixed-\(index)"), sightings: [sighting])
            return try await instance.adminClient().call("POST", "/v1/sightings", json: batch, as: SightingReceipt.self)
        }
        let until = URLQueryItem(name: "until", value: JSONCoding.formatDate(end.addingTimeInterval(1)))
        let streamURL = a.baseURL.appendingPathComponent("v1/tags/\(tag.id)/positions/stream").appending(queryItems: [URLQueryItem(name: "after", value: "0"), until])
        let stream = EventStreamClient(url: streamURL, token: a.adminToken)
        defer { stream.close() }
        for (index, instance) in [(0, a), (1, a), (2, b), (3, b)] {
            #expect(try await post(index, after: 0, to: instance).positions.isEmpty)
        }
        async let closedOnA = post(0, after: 1, to: a)
        async let closedOnB = post(1, after: 1, to: b)
        let answered = try await closedOnA.positions + closedOnB.positions
        _ = try await stream.waitForEvents(1)
        let listURL = b.baseURL.appendingPathComponent("v1/tags/\(tag.id)/positions").appending(queryItems: [until])
        let feed = try await b.adminClient().call("GET", listURL.absoluteString, as: Page<TagPosition>.self)
        let position = try #require(feed.items.first)
        #expect(feed.items == [position] && position.scannersHeard == 4 && position.time == end, "\(feed.items)")
        #expect(answered.allSatisfy { $0 == position }, "A and B answered \(answered)")
    }

    private static func batch(revision: Int, readings: Int) -> MeasurementBatch {
        let start = Date()
        let measurements = (0 ..< readings).map { index in
            ScanContract.Measurement(
                time: start.addingTimeInterval(Double(index) / 1000), rssi: -40 - index % 50, scan: 0,
                observation: .wifi(WiFiObservation(bssid: BSSID(rawValue: 0x02_00_00_00_00_00 + UInt64(index)), ssid: "fleet", frequencyMHz: 2412))
            )
        }
        return MeasurementBatch(batchID: UUID(), scannerID: try! ScannerID(scanner), switchRevision: revision, measurements: measurements)
    }

    private static func upload(_ batch: MeasurementBatch, to client: APIClient) async throws -> Int {
        try await client.send("POST", "/v1/measurements", json: batch).status
    }
}

/// The batches answered 2xx so far, and how many of them A answered.
private actor AcknowledgedBatches {
    private(set) var batches: [MeasurementBatch] = []
    private(set) var viaA = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func add(_ batch: MeasurementBatch, viaA fromA: Bool) {
        batches.append(batch)
        if fromA { viaA += 1 }
        let ready = waiters.filter { $0.count <= viaA }
        waiters.removeAll { $0.count <= viaA }
        for waiter in ready { waiter.continuation.resume() }
    }

    private var finished = false

    /// Returns once A has answered `count` batches, or the uploads are over (``finish()``).
    func waitForViaA(_ count: Int) async {
        if viaA >= count || finished { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    func finish() {
        finished = true
        for waiter in waiters { waiter.continuation.resume() }
        waiters.removeAll()
    }
}
