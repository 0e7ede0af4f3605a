import DaemonSupport
import Foundation

/// Prints a fleet run's figures for people, then one JSON line for machines.
struct FleetReport {
    let result: FleetBench.Result

    func print() {
        let r = result
        func ms(_ stats: Stats, _ p: Double) -> String { String(format: "%7.1f ms", stats.percentile(p)) }
        let storedPercent = r.counts.offered == 0 ? .nan : Double(r.counts.stored) / Double(r.counts.offered) * 100
        let offeredRate = Double(r.scanners * r.readings) / r.interval.seconds
        let limit = (r.openFileLimit.map { ", open-file limit \($0)" } ?? "")
            + (r.instances > 1 ? ", \(r.instances) switchd on one PostgreSQL (CPU, RSS, descriptors: their sums)" : "")
        let lines = [
            "",
            "fleet: \(r.scanners) scanners × \(r.readings) readings every \(r.interval.seconds) s (\(Int(offeredRate)) readings/s offered)\(limit)",
            "------------------------------------------------------------------------------",
            String(format: "setup (scanners, tokens, switches): %.1f s", r.setupSeconds),
            String(format: "idle, %d long-polls held: switchd CPU %.1f %% of a core   target < 5 %%", r.scanners, r.idleCorePercent),
            "flip → scanner, idle      (n=\(r.idleFlips.count), missed \(r.idleFlipsMissed), refused \(r.idleFlipsRefused))  p50 \(ms(r.idleFlips, 50))  p99 \(ms(r.idleFlips, 99))",
            "flip → scanner, under load (n=\(r.loadFlips.count), missed \(r.loadFlipsMissed), refused \(r.loadFlipsRefused))  p50 \(ms(r.loadFlips, 50))  p99 \(ms(r.loadFlips, 99))   target p99 < 100 ms",
            "  of which the PATCH answered (switch stored)  p50 \(ms(r.loadFlipsAnswered, 50))  p99 \(ms(r.loadFlipsAnswered, 99))",
            String(format: "stored / offered: %d / %d readings = %.2f %%   target ≥ 99 %%", r.counts.stored, r.counts.offered, storedPercent),
            "upload latency (n=\(r.postLatency.count))  p50 \(ms(r.postLatency, 50))  p99 \(ms(r.postLatency, 99));  busy answers \(r.counts.busy), failed uploads \(r.counts.failed), failed long-polls \(r.counts.pollFailures)",
            String(format: "under load: switchd CPU %.1f %% of a core; RSS %.0f MB (peak %.0f MB); %d descriptors open", r.loadCorePercent,
                   Double(r.residentBytes) / 1e6, Double(r.peakResidentBytes) / 1e6, r.openDescriptors),
            "switchd after the run: \(r.switchdAlive ? "running" : "GONE"), /healthz \(r.healthAfter)",
            String(format: "shedding: connection limit reached %.0f times, %.0f connections refused (503 overloaded), %.0f uploads refused (503 busy)",
                   r.shedding.connectionLimitReached, r.shedding.connectionsRefused, r.shedding.uploadsRefused),
        ] + r.shedding.logLines.prefix(5).map { "switchd logged: \($0.prefix(300))" } + [
            "",
        ]
        lines.forEach { Swift.print($0) }
        #if DEBUG
        Swift.print("(debug build: these figures are not the product's; scripts/bench measures a release build)")
        #endif
        let json: [String: Double] = [
            "scanners": Double(r.scanners), "readingsPerBatch": Double(r.readings), "intervalSeconds": r.interval.seconds,
            "idleCorePercent": r.idleCorePercent, "loadCorePercent": r.loadCorePercent,
            "flipIdleP50Ms": r.idleFlips.percentile(50), "flipIdleP99Ms": r.idleFlips.percentile(99),
            "flipLoadP50Ms": r.loadFlips.percentile(50), "flipLoadP99Ms": r.loadFlips.percentile(99),
            "flipLoadAnsweredP50Ms": r.loadFlipsAnswered.percentile(50), "flipLoadAnsweredP99Ms": r.loadFlipsAnswered.percentile(99),
            "storedPercent": storedPercent, "postP50Ms": r.postLatency.percentile(50), "postP99Ms": r.postLatency.percentile(99),
            "residentMB": Double(r.residentBytes) / 1e6, "peakResidentMB": Double(r.peakResidentBytes) / 1e6,
        ]
        if let data = try? JSONSerialization.data(withJSONObject: json.filter { !$0.value.isNaN }, options: [.sortedKeys]) {
            Swift.print(String(decoding: data, as: UTF8.self))
        }
    }
}

