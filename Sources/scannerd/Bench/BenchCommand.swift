import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
            print(
                "\(mode.rawValue): \(decimal(result.microsecondsPerAdvertisement, digits: 1)) µs per advertisement, "
                    + "\(decimal(result.percentOfCore(at: 500), digits: 2)) % of a core at 500 advertisements/s "
                    + "(CPU \(decimal(result.cpu / .milliseconds(1), digits: 0)) ms over \(decimal(result.wall / .seconds(1), digits: 1)) s; "
                    + "\(result.advertisements) advertisements, \(result.spooled) readings spooled with \(result.journalWrites) journal writes)"
            )
        }
    }
}

/// `value` with `digits` decimals, rounded half away from zero, as `%.Nf` writes it (String(format:)
/// is full Foundation's, which scannerd does not link).
private func decimal(_ value: Double, digits: Int) -> String {
    let scale = (0..<digits).reduce(1) { scale, _ in scale * 10 }
    let units = Int((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && units != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(units) }
    let fraction = String(units % scale)
    return sign + String(units / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
}
