import ArgumentParser
import Foundation
import Logging
import ScanContract

/// `scannerd bench --captures DIR`: scannerd's CPU time per BLE advertisement, in survey and in
/// locate mode (see ``AdvertisementBench``). For release builds; `scripts/bench` runs it.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure scannerd's CPU time per BLE advertisement: captured HCI events through decoding, the iBeacon filter, measurements and the spool (and the locator in locate mode)."
    )

    @Option(help: "A folder of btsnoop captures (*.log); their HCI events that carry iBeacon advertisements are replayed.")
    var captures: String

    @Option(help: "How many events to replay per mode.")
    var events = 5000

    @Option(help: "Events per second (0: as fast as scannerd takes them).")
    var rate = 500

    @Option(help: "Which modes to measure: survey, locate or both.")
    var mode = "both"

    @Option(help: "Where the spools are made (a folder on the disk scannerd spools to; removed afterwards). Default: a new folder in /var/tmp.")
    var workDir: String?

    func validate() throws {
        guard events > 0 else { throw ValidationError("--events must be more than 0, got \(events)") }
        guard rate >= 0 else { throw ValidationError("--rate must be 0 or more, got \(rate)") }
        guard modes != nil else { throw ValidationError("--mode must be survey, locate or both, got \"\(mode)\"") }
    }

    private var modes: [ScanMode]? {
        mode == "both" ? [.survey, .locate] : ScanMode(rawValue: mode).map { [$0] }
    }

    func run() async throws {
        let replayed = try CapturedBeaconEvents(folder: captures)
        var logger = Logger(label: "scannerd-bench", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .warning
        let bench = AdvertisementBench(events: replayed, count: events, rate: rate == 0 ? nil : rate, logger: logger)
        let root = workDir ?? "/var/tmp/scannerd-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: root) } // Scratch space; a leftover is harmless.
        print("scannerd bench: \(events) events (\(bench.expectedReadings) iBeacon advertisements) replayed from \(replayed.packets.count) captured in \(captures), \(rate == 0 ? "as fast as taken" : "\(rate)/s"); spools in \(root)")
        for mode in modes ?? [] {
            let result = try await bench.run(mode: mode, directory: root + "/" + mode.rawValue)
            print(String(
                format: "%@: %.1f µs per advertisement, %.2f %% of a core at 500 advertisements/s (CPU %.0f ms over %.1f s; %d advertisements, %d readings spooled with %d journal writes)",
                mode.rawValue, result.microsecondsPerAdvertisement, result.percentOfCore(at: 500),
                result.cpu / .milliseconds(1), result.wall / .seconds(1), result.advertisements, result.spooled, result.journalWrites
            ))
        }
    }
}
