import ArgumentParser
import DaemonSupport
import Evaluation
import Foundation
import Positioning

/// `floorscan-evaluate speed-curve`: how the default Wi-Fi method's query time and index build
/// time grow with the map, on simulated surveys (`SimulatedSurvey`: the building grows with the
/// map, at one sample per 2 m × 2 m and an access point per 200 m² on each of three floors).
/// Prints one Markdown table: per map size the access points, build seconds (and thread CPU seconds
/// of the build with the settings choice, as `Locator` builds), index size and the
/// median and 95th-percentile single-thread query time.
struct SpeedCurveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speed-curve",
        abstract: "Query and build time of the default Wi-Fi method against map size, on simulated surveys."
    )

    @Option(parsing: .upToNextOption, help: "Map sizes in survey samples.")
    var samples: [Int] = [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000]

    @Option(help: "Scans positioned per map size.")
    var queries: Int = 1_000

    @Option(help: "Seed of the simulation; the same seed gives the same maps and scans.")
    var seed: UInt64 = 16

    func validate() throws {
        for size in samples where size < 1 { throw ValidationError("--samples must be at least 1, got \(size)") }
        guard queries >= 1 else { throw ValidationError("--queries must be at least 1, got \(queries)") }
    }

    func run() {
        print(SpeedCurveTable(points: samples.map(measure)).markdown, terminator: "")
    }

    /// Builds the locator over a simulated map of `size` samples and times `queries` scans, one at a time.
    func measure(size: Int) -> SpeedCurveTable.Point {
        var generator = SeededGenerator(seed: seed &+ UInt64(size))
        let simulation = SimulatedSurvey()
        let site = simulation.site(forSamples: size, using: &generator)
        let records = simulation.samples(size, of: site, using: &generator)
        let scans = (0..<queries).map { _ in
            let place = site.randomPlace(using: &generator)
            return site.scan(at: place.position, floor: place.floor, using: &generator)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let locator = WiFiKNNLocator(records: records)
        let buildSeconds = (clock.now - started) / .seconds(1)
        // What Locator builds: the survey first chooses its settings (thread CPU, as on a quiet machine).
        let choosingSeconds = CPUTime.onThisThread { WiFiKNNLocator.choosingSettings(records: records) }.seconds
        var milliseconds: [Double] = []
        for scan in scans {
            milliseconds.append(clock.measure { _ = locator.locate(scan) } / .milliseconds(1))
        }
        milliseconds.sort()
        return SpeedCurveTable.Point(
            samples: size, accessPoints: site.accessPoints.count, buildSeconds: buildSeconds, choosingSeconds: choosingSeconds, indexBytes: locator.memoryBytes,
            medianMilliseconds: ErrorSummary.percentile(50, ofSorted: milliseconds),
            p95Milliseconds: ErrorSummary.percentile(95, ofSorted: milliseconds))
    }
}

/// The speed curve as one Markdown table.
struct SpeedCurveTable {
    struct Point {
        var samples: Int
        var accessPoints: Int
        var buildSeconds: Double
        /// Thread CPU seconds of the build with the settings choice (`choosingSettings`).
        var choosingSeconds: Double
        var indexBytes: Int
        var medianMilliseconds: Double
        var p95Milliseconds: Double
    }

    var points: [Point]

    var markdown: String {
        var lines = [
            "| samples | access points | build s | build + choice CPU s | index MB | ms/query median | ms/query p95 |",
            "|---|---|---|---|---|---|---|",
        ]
        for point in points {
            let cells = [
                "\(point.samples)", "\(point.accessPoints)", SuiteTable.fixed(point.buildSeconds, digits: 3),
                SuiteTable.fixed(point.choosingSeconds, digits: 3),
                SuiteTable.fixed(Double(point.indexBytes) / 1_048_576, digits: 1),
                SuiteTable.fixed(point.medianMilliseconds, digits: 3), SuiteTable.fixed(point.p95Milliseconds, digits: 3),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
