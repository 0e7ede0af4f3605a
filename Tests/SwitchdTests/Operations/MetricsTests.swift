import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `GET /metrics` scraped over the test client; every number is read before and after the
/// requests that should move it.
@Suite(.timeLimit(.minutes(1))) struct MetricsTests {
    @Test func requestsAreCountedByRoutePatternMethodAndStatus() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("pi-7"), name: "Pi 7"), as: ScanContract.Scanner.self)
            for id in ["pi-7", "default", "nobody"] {
                _ = try await client.get("/v1/scanners/\(id)")
            }
            _ = try await client.get("/no/such/thing")
            let samples = try await client.scrape()
            #expect(samples[#"switchd_http_requests_total{route="/v1/scanners/{id}",method="GET",status="200"}"#] == 2)
            #expect(samples[#"switchd_http_requests_total{route="/v1/scanners/{id}",method="GET",status="404"}"#] == 1)
            #expect(samples[#"switchd_http_requests_total{route="/v1/scanners",method="POST",status="201"}"#] == 1)
            #expect(samples[#"switchd_http_requests_total{route="unmatched",method="GET",status="404"}"#] == 1)
            #expect(!samples.values.keys.contains { $0.contains("pi-7") || $0.contains("nobody") }, "raw paths never become labels")
            #expect(samples[#"switchd_http_request_duration_seconds_count{route="/v1/scanners/{id}",method="GET"}"#] == 3)
            #expect(samples[#"switchd_http_request_duration_seconds_bucket{route="/v1/scanners/{id}",method="GET",le="+Inf"}"#] == 3)

            let again = try await client.scrape()
            #expect(again[#"switchd_http_requests_total{route="/metrics",method="GET",status="200"}"#] == 1, "the first scrape counted")
        }
    }

    @Test func ingestCountsAndDatabaseSizeGrowWithStoredRows() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let before = try await client.scrape()
                #expect(before["switchd_measurements_stored_total"] == 0)
                #expect(before["switchd_database_size_bytes"] > 0)

                let spot = try await SurveySpot.make(client)
                let on = try await client.startSurvey(at: spot.location.id)
                let readings = (0..<600).map { Readings.wifi(scan: $0 / 100, rssi: -40 - $0 % 50) }
                let batch = Readings.batch(readings, revision: on.revision)
                _ = try await client.uploadNew(batch)
                #expect(try await client.upload(batch).status == .ok, "a duplicate stores nothing")
                let world = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Upstairs", level: 1), as: Floor.self)
                for index in 0..<3 {
                    _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world, at: Double(index)), as: Position.self)
                }

                let after = try await client.scrape()
                #expect(after["switchd_measurements_stored_total"] == 600)
                #expect(after["switchd_positions_stored_total"] == 3)
                #expect(after["switchd_database_size_bytes"] > before["switchd_database_size_bytes"])
            }
        }
    }

    @Test func scannerReportsBecomePerScannerCountersThatOnlyGrow() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let first = UUID()
            let uri = "/v1/scanners/default/counters"
            let sent = Date.now.timeIntervalSince1970
            #expect(try await client.send(.put, uri, json: ScannerCounters(run: first, advertisements: 10, wifiScans: 2, spoolDepth: 4)).status == .noContent)
            let answered = Date.now.timeIntervalSince1970
            var samples = try await client.scrape()
            #expect(samples[#"scannerd_advertisements_total{scanner="default"}"#] == 10)
            #expect(samples[#"scannerd_wifi_scans_total{scanner="default"}"#] == 2)
            #expect(samples[#"scannerd_spool_depth_batches{scanner="default"}"#] == 4)
            let reported = samples[#"scannerd_last_report_timestamp_seconds{scanner="default"}"#]
            #expect(sent <= reported && reported <= answered, "the time switchd received the report")

            // The same run counted on: only the growth is added; an older report adds nothing.
            _ = try await client.send(.put, uri, json: ScannerCounters(run: first, advertisements: 25, wifiScans: 2, uploadRetries: 1, droppedReadings: 7))
            _ = try await client.send(.put, uri, json: ScannerCounters(run: first, advertisements: 20, wifiScans: 2, uploadRetries: 1))
            // scannerd restarted: its new run's counts are added in full.
            _ = try await client.send(.put, uri, json: ScannerCounters(run: UUID(), advertisements: 3, parseErrors: 2, radioRecoveries: 1))
            samples = try await client.scrape()
            #expect(samples[#"scannerd_advertisements_total{scanner="default"}"#] == 28)
            #expect(samples[#"scannerd_upload_retries_total{scanner="default"}"#] == 1)
            #expect(samples[#"scannerd_dropped_readings_total{scanner="default"}"#] == 7)
            #expect(samples[#"scannerd_parse_errors_total{scanner="default"}"#] == 2)
            #expect(samples[#"scannerd_radio_recoveries_total{scanner="default"}"#] == 1)
            #expect(samples[#"scannerd_spool_depth_batches{scanner="default"}"#] == 0)
        }
    }

    @Test func aReportOfAnOlderScannerdWithoutDroppedReadingsIsTaken() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let older = #"{"run":"\#(UUID().uuidString)","advertisements":5,"wifiScans":1,"parseErrors":0,"radioRecoveries":0,"uploadRetries":0,"spoolDepth":2}"#
            let response = try await client.execute(
                uri: "/v1/scanners/default/counters", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: older)
            )
            #expect(response.status == .noContent)
            let samples = try await client.scrape()
            #expect(samples[#"scannerd_advertisements_total{scanner="default"}"#] == 5)
        }
    }

    @Test func badScannerReportsAreRefused() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let unknown = try await client.send(.put, "/v1/scanners/nobody/counters", json: ScannerCounters(run: UUID(), advertisements: 1))
            #expect(unknown.status == .notFound)
            let negative = try await client.send(.put, "/v1/scanners/default/counters", json: ScannerCounters(run: UUID(), wifiScans: -1))
            #expect(negative.status == .unprocessableContent)
            #expect(try errorBody(negative).field == "wifiScans")
            let samples = try await client.scrape()
            #expect(!samples.values.keys.contains { $0.hasPrefix("scannerd_") }, "nothing refused is exported")
        }
    }

    /// The gauge rises before the stream writes anything, so it is 1 once an event arrives; it
    /// falls when the stream ends, which the client cannot see, so the test waits for that change.
    @Test func feedSubscribersRiseWhileAStreamIsOpen() async throws {
        let watch = MeterWatch()
        let metrics = SwitchdMetrics(wrap: watch.wrap)
        try await makeApp(try .inMemory(), metrics: metrics).test(.live) { client in
            let port = try #require(client.port)
            let series = #"switchd_feed_subscribers{feed="measurements"}"#
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            let during = try await withEventStream(port: port, path: "/v1/measurements/stream") { reader in
                #expect(try await reader.status() == 200)
                _ = try await client.uploadNew(Readings.batch([Readings.wifi()], revision: on.revision))
                _ = try #require(try await reader.nextEvent())
                return try await client.scrape()[series]
            }
            #expect(during == 1)
            let changes = await watch.changes(2, of: "switchd_feed_subscribers", [("feed", "measurements")])
            #expect(changes == [1, 0], "one subscriber came and went")
            #expect(try await client.scrape()[series] == 0, "the stream ended when the client left")
        }
    }
}
