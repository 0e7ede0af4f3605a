import Dispatch
import Foundation
import Harness

/// What `GET /v1/dashboard` costs as the kept history grows: the same request, over the same
/// recent traffic (a batch and a position every `step` up to now, `window` of it in the
/// dashboard's window), timed over a database holding each of `sizes` batches and positions.
/// The history is written straight into switchd's database file between two starts, as if
/// switchd had stored it over the months it spans.
struct DashboardBench {
    var sizes = [10_000, 1_000_000]
    var requests = 50
    var step = Duration.seconds(10)
    var window = Duration.seconds(6 * 3600)

    struct Result {
        var rows: Int
        var days: Double
        var latency: Stats
    }

    func run(in folder: TemporaryFolder) async throws -> [Result] {
        var results: [Result] = []
        for rows in sizes {
            let stateName = "switchd-dashboard-\(rows)"
            let first = try await SwitchdInstance.start(in: folder, arguments: ["--log-level", "warning"], label: stateName, stateName: stateName)
            await first.process.terminate()
            print("dashboard: writing \(rows) batches and \(rows) positions …")
            try fill(databaseIn: first.stateDir, rows: rows, now: Date())
            let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--log-level", "warning"], label: stateName, stateName: stateName)
            defer { switchd.process.signal(SIGKILL) }
            let since = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-seconds(window)))
            let client = switchd.adminClient()
            var latencies: [Double] = []
            // One untimed request first: the connection and the first read of the file are no part of the figure.
            for request in 0...requests {
                let sent = DispatchTime.now().uptimeNanoseconds
                let answer = try await client.send("GET", "/v1/dashboard?since=\(since)")
                guard answer.status == 200 else { throw HarnessError("GET /v1/dashboard answered \(answer.status)") }
                if request > 0 { latencies.append(milliseconds(from: sent, to: DispatchTime.now().uptimeNanoseconds)) }
            }
            await switchd.process.terminate()
            results.append(Result(rows: rows, days: Double(rows) * seconds(step) / 86_400, latency: Stats(latencies)))
        }
        return results
    }

    /// `rows` batches (one in ten storing 50 readings, as a mostly-locate site) and `rows`
    /// positions of the seed scanner, one of each every `step` up to `now`; presence starts
    /// after them, so switchd does not replay them.
    private func fill(databaseIn stateDir: String, rows: Int, now: Date) throws {
        let db = try SQLiteHandle(path: stateDir + "/switchd.sqlite")
        defer { db.close() }
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        let stepMs = Int64(seconds(step) * 1000)
        let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))"
        try db.exec("""
            BEGIN;
            INSERT INTO floor (building, name, level) VALUES ('', 'Bench', 0);
            \(numbers)
            INSERT INTO batch (uuid, scanner_id, revision, received_ms, stored, discarded)
            SELECT randomblob(16), 'default', 1, \(nowMs) - (\(rows) - i) * \(stepMs), CASE WHEN i % 10 = 0 THEN 50 ELSE 0 END, 0 FROM n;
            \(numbers)
            INSERT INTO position (scanner_id, time_ms, building, floor_id, x, y, accuracy_metres, method)
            SELECT 'default', \(nowMs) - (\(rows) - i) * \(stepMs), '', (SELECT MAX(id) FROM floor), i % 20, i % 15, 3, 'wifi-knn' FROM n;
            UPDATE presence_cursor SET after_position_id = (SELECT MAX(id) FROM position);
            COMMIT;
            """)
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The figures, one line per history size.
    static func report(_ results: [Result], requests: Int) {
        print("GET /v1/dashboard over a growing history (\(requests) requests each; same recent traffic):")
        for result in results {
            print(String(
                format: "  %9d batches + positions (%.0f days): median %.2f ms, p90 %.2f ms, max %.2f ms",
                result.rows, result.days, result.latency.percentile(50), result.latency.percentile(90), result.latency.maximum
            ))
        }
    }
}
