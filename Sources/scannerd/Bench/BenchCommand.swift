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
/// locate mode (see ``AdvertisementBench``), then in track mode over a stream of phones' rotating
/// private addresses with 0, 20 and 200 keys watched (``ResolutionBench``). For release builds;
/// `scripts/bench` runs it.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure scannerd's CPU time per BLE advertisement: captured HCI events through decoding, the iBeacon filter, measurements and the spool (and the locator in locate mode); and track mode's resolution of phones' private addresses."
    )

    @Option(help: "A folder of btsnoop captures (*.log); their HCI events that carry iBeacon advertisements are replayed (survey and locate).")
    var captures: String?

    @Option(help: "How many events to replay per mode.")
    var events = 5000

    @Option(help: "Events per second (0: as fast as scannerd takes them).")
    var rate = 500

    @Option(help: "Which modes to measure: survey, locate, both (survey and locate), resolve (phones' private addresses) or all.")
    var mode = "all"

    @Option(help: "Advertisements in the private-address stream (resolve).")
    var resolveAdvertisements = 50_000

    @Option(help: "Where the spools are made (a folder on the disk scannerd spools to; removed afterwards). Default: a new folder in /var/tmp.")
    var workDir: String?

    func validate() throws {
        guard events > 0 else { throw ValidationError("--events must be more than 0, got \(events)") }
        guard rate >= 0 else { throw ValidationError("--rate must be 0 or more, got \(rate)") }
        guard modes != nil else { throw ValidationError("--mode must be survey, locate, both, resolve or all, got \"\(mode)\"") }
        guard captures != nil || modes?.isEmpty == true else { throw ValidationError("--captures is needed for survey and locate") }
        guard resolveAdvertisements > 0 else { throw ValidationError("--resolve-advertisements must be more than 0") }
    }

    private var modes: [ScanMode]? {
        switch mode {
        case "both", "all": [.survey, .locate]
        case "resolve": []
        default: ScanMode(rawValue: mode).map { [$0] }
        }
    }

    func run() async throws {
        if let captures, modes?.isEmpty == false { try await replay(captures) }
        if mode == "all" || mode == "resolve" { resolve() }
    }

    /// Track mode over phones' private addresses: µs per advertisement with 0 (today), 20 and
    /// 200 keys, side by side, for a stream where addresses are heard again (phones rotate every
    /// 15 minutes or so) and for the worst case, a new address every advertisement.
    private func resolve() {
        for (title, rotateEvery) in [("addresses heard 50 times each", 50), ("worst case: every address new", 1)] {
            let bench = ResolutionBench.make(count: resolveAdvertisements, rotateEvery: rotateEvery)
            let results = [0, 20, 200].map { bench.run(keys: $0) }
            let today = results[0].microsecondsPerAdvertisement
            let figures = results.map { result -> String in
                let cost = result.microsecondsPerAdvertisement
                let figure = "\(result.keys) keys \(decimal(cost, digits: 2)) µs"
                guard result.keys > 0 else { return figure }
                let ratio = decimal(cost / max(today, 0.001), digits: 2)
                let added = decimal(cost - today, digits: 2)
                return figure + " (×\(ratio), +\(added) µs; \(result.resolved) of the phone's \(bench.phoneAdvertisements) resolved)"
            }
            print(
                "track, private addresses (\(title); \(resolveAdvertisements) advertisements, 9 in 10 from 100 strangers' phones): "
                    + figures.joined(separator: ", ")
            )
        }
    }

    private func replay(_ captures: String) async throws {
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
