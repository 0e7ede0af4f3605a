import ArgumentParser
import Foundation
import Harness

/// `floorscan-bench`: the product's speed targets, measured in one run on loopback with the real
/// daemons (build them in release mode first; `scripts/bench` does).
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floorscan-bench",
        abstract: "Measures switch-flip latency, time to the first stored reading, and ingest rate against raw SQLite."
    )

    @Option(help: "Switch flips for the flip → scanning latency.")
    var flips = 200

    @Option(help: "Flips for the flip → first stored reading time.")
    var firstReadingFlips = 20

    @Option(help: "Readings to ingest through switchd (and to insert raw).")
    var ingestReadings = 100_000

    @Option(help: "Readings per batch, for both ingest paths.")
    var batchSize = 500

    @Option(help: "Uploads in flight at once.")
    var concurrency = 2

    @Option(help: "Ingest rounds; switchd and raw SQLite are compared by their median round.")
    var rounds = 3

    mutating func run() async throws {
        let folder = try TemporaryFolder("bench")
        defer { folder.remove() }
        print("floorscan benchmark — binaries from \(Binaries.directory.path)")
        let flip = try await FlipLatencyBench(flips: flips, firstReadingFlips: firstReadingFlips).run(in: folder)
        let ingest = try await IngestBench(readings: ingestReadings, batchSize: batchSize, concurrency: concurrency, rounds: rounds).run(in: folder)
        Report(flip: flip, ingest: ingest).print()
    }
}
