import Foundation
import Harness

/// The PostgreSQL twin of ``IngestBench`` (issue 35, item 3): switchd on a throwaway PostgreSQL
/// server ingesting batches posted over HTTP, next to the raw COPY of the very same rows into
/// twin databases on the same server (``RawPostgresBaseline``), alone and like switchd. Rounds
/// alternate (switchd, raw, raw like switchd, …) and each figure is the median of per-round ratios.
struct PostgresIngestBench {
    let bench: IngestBench

    struct Result {
        var readings: Int
        var switchdPerSecond: [Double]
        var rawPerSecond: [Double]
        var likePerSecond: [Double]
        /// On disk per stored reading in switchd's database after the rounds: the `measurement`
        /// table with its indexes and TOAST, and everything else ingest writes (batch rows,
        /// emitter cells, feed marks), for the growth a day of readings brings.
        var measurementBytesPerReading: Double = 0
        var otherIngestBytesPerReading: Double = 0
        var pairRatios: [Double] { zip(switchdPerSecond, rawPerSecond).map { $0 / $1 } }
        var likePairRatios: [Double] { zip(switchdPerSecond, likePerSecond).map { $0 / $1 } }
    }

    func run(in folder: TemporaryFolder) async throws -> Result {
        let server = try await PostgresServer()
        do {
            let result = try await measure(on: server, in: folder)
            await server.remove()
            return result
        } catch {
            await server.remove()
            throw error
        }
    }

    private func measure(on server: PostgresServer, in folder: TemporaryFolder) async throws -> Result {
        let live = "switchd"
        try await server.createDatabase(live)
        let tokenFile = try writeTokenFile("fst_\(UUID().uuidString)", in: folder, label: "pg-ingest-admin")
        let arguments = ["--log-level", "warning", "--database", server.url(database: live)]
        func start() async throws -> SwitchdInstance {
            try await SwitchdInstance.start(
                in: folder, arguments: arguments, label: "switchd-pg-ingest", stateName: "switchd-pg-ingest", adminTokenFile: tokenFile
            )
        }
        var switchd = try await start()
        let revision = try await IngestBench.setUpSite(through: switchd.adminClient())
        // The twins are made from switchd's database while no one is connected to it.
        _ = await switchd.process.terminate()
        for twin in ["raw_readings", "raw_like"] {
            _ = try await server.psql("CREATE DATABASE \(twin) TEMPLATE \(live)", database: "postgres")
        }
        switchd = try await start()
        defer { switchd.process.signal(SIGKILL) }
        let running = switchd
        let result = try await withFleetHTTP(baseURL: running.baseURL, connections: bench.concurrency) { http in
            var clock = Date()
            // Connections, statement caches and the server's buffers warmed by one batch not counted.
            _ = try await bench.postAll(try bench.makeBodies(revision: revision, count: 1, clock: &clock), through: http, token: running.adminToken)
            let raw = try await RawPostgresBaseline(server: server, live: live, copy: "raw_readings", work: .readingsOnly, folder: folder)
            let like = try await RawPostgresBaseline(server: server, live: live, copy: "raw_like", work: .likeSwitchd, folder: folder)
            var result = Result(readings: (bench.readings / bench.batchSize) * bench.batchSize, switchdPerSecond: [], rawPerSecond: [], likePerSecond: [])
            for round in 1...bench.rounds {
                let bodies = try bench.makeBodies(revision: revision, count: bench.readings / bench.batchSize, clock: &clock)
                print("PostgreSQL ingest round \(round)/\(bench.rounds): \(bodies.count) batches × \(bench.batchSize) readings through switchd, then the same rows by COPY, alone and with their batch and summary …")
                let seconds = try await bench.postAll(bodies, through: http, token: running.adminToken)
                result.switchdPerSecond.append(Double(bodies.count * bench.batchSize) / seconds)
                result.rawPerSecond.append(try await raw.round())
                result.likePerSecond.append(try await like.round())
            }
            return result
        }
        _ = await switchd.process.terminate()
        var measured = result
        let sizes = try await server.psql("""
            SELECT pg_total_relation_size('measurement')::float8 / GREATEST(COUNT(*), 1) || '|' ||
                (pg_total_relation_size('batch') + pg_total_relation_size('emitter_cell') + pg_total_relation_size('feed_mark'))::float8 / GREATEST(COUNT(*), 1)
            FROM measurement
            """, database: live).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Double($0) }
        if sizes.count == 2 {
            (measured.measurementBytesPerReading, measured.otherIngestBytesPerReading) = (sizes[0], sizes[1])
        }
        return measured
    }
}
