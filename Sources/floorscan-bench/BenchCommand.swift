import ArgumentParser
import Foundation
import Harness

/// `floorscan-bench`: the product's speed targets, measured on loopback with the real daemons
/// (build them in release mode first; `scripts/bench` does).
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floorscan-bench",
        abstract: "Measures floorscan's speed targets on loopback with the real daemons.",
        subcommands: [Standard.self, Fleet.self, PostgresIngest.self, DashboardHistory.self, Delivery.self],
        defaultSubcommand: Standard.self
    )
}

extension BenchCommand {
    /// Switch-flip latency, first stored reading, ingest against raw SQLite, token checks.
    struct Standard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "standard",
            abstract: "Switch-flip latency, time to the first stored reading, ingest rate against raw SQLite, token-check cost."
        )

        @Option(help: "Switch flips for the flip → scanning latency.")
        var flips = 200

        @Option(help: "Flips for the flip → first stored reading time.")
        var firstReadingFlips = 20

        @Option(help: "Readings to ingest through switchd (and to insert raw) per round.")
        var ingestReadings = 100_000

        @Option(help: "Readings per batch, for both ingest paths.")
        var batchSize = 500

        @Option(help: "Uploads in flight at once.")
        var concurrency = 2

        @Option(help: "Ingest rounds per side; switchd and raw SQLite rounds alternate and are compared pair by pair.")
        var rounds = 5

        @Option(help: "Tokens stored for the many-tokens token check.")
        var manyTokens = 10_000

        @Flag(name: .customLong("random-reading-ids"), help: "Ingest readings with random (version 4) IDs, as scannerd sent them before its IDs were time-ordered.")
        var randomReadingIDs = false

        mutating func run() async throws {
            let folder = try TemporaryFolder("bench")
            defer { folder.remove() }
            print("floorscan benchmark — binaries from \(Binaries.directory.path)")
            let flip = try await FlipLatencyBench(flips: flips, firstReadingFlips: firstReadingFlips).run(in: folder)
            let ingest = try await IngestBench(
                readings: ingestReadings, batchSize: batchSize, concurrency: concurrency, rounds: rounds, randomReadingIDs: randomReadingIDs
            ).run(in: folder)
            let tokens = try await TokenBench(manyTokens: manyTokens).run(in: folder)
            Report(flip: flip, ingest: ingest, tokens: tokens).print()
        }
    }

    /// N simulated scanners on one switchd.
    struct Fleet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fleet",
            abstract: "N simulated scanners on one switchd: stored/offered, upload and flip latency idle and under load, switchd CPU and memory."
        )

        @Option(help: "Simulated scanners.")
        var scanners = 1_000

        @Option(help: "Readings per batch.")
        var readings = 50

        @Option(help: "Seconds between one scanner's batches.")
        var interval = 2.0

        @Option(help: "Seconds of the idle CPU measurement (long-polls re-arm every 30 s).")
        var idleSeconds = 30

        @Option(help: "Seconds of the measured load phase.")
        var loadSeconds = 30

        @Option(help: "Flips in each phase.")
        var flips = 100

        @Option(help: "Run switchd under this open-file limit (prlimit --nofile).")
        var openFileLimit: Int?

        // Spelled out: ArgumentParser would make `--random-reading-i-ds` of the property's name.
        @Flag(name: .customLong("random-reading-ids"), help: "Random (version 4) reading IDs, as scannerd sent them before its IDs were time-ordered.")
        var randomReadingIDs = false

        @Flag(help: "Two switchd instances on one throwaway PostgreSQL server (long-polls on B, uploads on both, flips on A) instead of one on SQLite.")
        var postgres = false

        mutating func run() async throws {
            let folder = try TemporaryFolder("bench-fleet")
            defer { folder.remove() }
            print("floorscan fleet benchmark — binaries from \(Binaries.directory.path)")
            let result = try await FleetBench(
                scanners: scanners, readings: readings, interval: .seconds(interval), idleSeconds: idleSeconds, loadSeconds: loadSeconds,
                flips: flips, openFileLimit: openFileLimit, randomReadingIDs: randomReadingIDs, postgres: postgres
            ).run(in: folder)
            FleetReport(result: result).print()
        }
    }

    /// The PostgreSQL twin of the ingest ratio (issue 35, item 3), beside SQLite's from the same run.
    struct PostgresIngest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "postgres-ingest",
            abstract: "Ingest rate of switchd on a throwaway PostgreSQL server against raw COPY of the same rows, beside SQLite's ratio from the same run."
        )

        @Option(help: "Readings to ingest through switchd (and to copy raw) per round.")
        var ingestReadings = 100_000

        @Option(help: "Readings per batch, for both ingest paths.")
        var batchSize = 500

        @Option(help: "Uploads in flight at once.")
        var concurrency = 2

        @Option(help: "Rounds per side; switchd and raw rounds alternate and are compared pair by pair.")
        var rounds = 5

        // Spelled out: ArgumentParser would make `--without-sq-lite` of the property's name.
        @Flag(name: .customLong("without-sqlite"), help: "Leave out the SQLite ratio measured after the PostgreSQL one.")
        var withoutSQLite = false

        mutating func run() async throws {
            let folder = try TemporaryFolder("bench-pg-ingest")
            defer { folder.remove() }
            guard PostgresServer.isInstalled else { throw HarnessError(PostgresServer.missing ?? "PostgreSQL is not installed") }
            print("floorscan PostgreSQL ingest benchmark — binaries from \(Binaries.directory.path)")
            let bench = IngestBench(readings: ingestReadings, batchSize: batchSize, concurrency: concurrency, rounds: rounds)
            let postgres = try await PostgresIngestBench(bench: bench).run(in: folder)
            let sqlite = withoutSQLite ? nil : try await bench.run(in: folder)
            PostgresIngestReport(postgres: postgres, sqlite: sqlite).print()
        }
    }
}
