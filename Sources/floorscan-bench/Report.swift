import Foundation

func rounded(_ rates: [Double]) -> String {
    rates.map { String(Int($0.rounded())) }.joined(separator: ", ")
}

/// Prints the figures as a table for people and one JSON line for machines.
struct Report {
    let flip: FlipLatencyBench.Result
    let ingest: IngestBench.Result
    let tokens: TokenBench.Result

    func print() {
        func ms(_ value: Double) -> String { String(format: "%8.2f ms", value) }
        func listed(_ ratios: [Double]) -> String { ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ") }
        let tokenLine = String(
            format: "token check, GET switch with %d tokens stored: p50 %.2f ms, %.0f req/s; with %d: p50 %.2f ms, %.0f req/s (rate ratio %.2f)",
            tokens.fewTokens, tokens.few.percentile(50), tokens.fewPerSecond, tokens.manyTokens, tokens.many.percentile(50),
            tokens.manyPerSecond, tokens.manyPerSecond / tokens.fewPerSecond
        )
        let lines = [
            "",
            "floorscan benchmark results (one run, loopback)",
            "------------------------------------------------------------------------------",
            "flip → scannerd scanning (n=\(flip.flipToScanning.count))    p50 \(ms(flip.flipToScanning.percentile(50)))  p99 \(ms(flip.flipToScanning.percentile(99)))  max \(ms(flip.flipToScanning.maximum))   target p99 < 50 ms",
            "flip → switch received   (n=\(flip.flipToSwitchReceived.count))    p50 \(ms(flip.flipToSwitchReceived.percentile(50)))  p99 \(ms(flip.flipToSwitchReceived.percentile(99)))",
            "flip off → scannerd idle (n=\(flip.flipToIdle.count))    p50 \(ms(flip.flipToIdle.percentile(50)))  p99 \(ms(flip.flipToIdle.percentile(99)))",
            "flip → first stored reading (n=\(flip.flipToFirstStored.count))  p50 \(ms(flip.flipToFirstStored.percentile(50)))  max \(ms(flip.flipToFirstStored.maximum))   target < 1000 ms",
            String(format: "ingest through switchd: median %.0f readings/s over %d rounds of %d readings", ingest.switchdMedian, ingest.switchdPerSecond.count, ingest.readings)
                + " (rounds: \(rounded(ingest.switchdPerSecond)); \(ingest.randomReadingIDs ? "random" : "time-ordered") reading IDs)",
            String(format: "raw SQLite batched insert, same readings, table and pragmas: median %.0f rows/s", ingest.rawMedian)
                + " (rounds: \(rounded(ingest.rawPerSecond)))",
            String(format: "raw SQLite like switchd (batch row, readings, emitter summary): median %.0f rows/s", ingest.likeMedian)
                + " (rounds: \(rounded(ingest.likePerSecond)))",
            String(format: "ingest ratio switchd / raw like switchd, median of %d alternated rounds: %.2f   target ≥ 0.8", ingest.likePairRatios.count, ingest.likeRatio)
                + " (rounds: \(listed(ingest.likePairRatios)))",
            String(format: "ingest ratio switchd / raw readings only, median of %d alternated rounds: %.2f", ingest.pairRatios.count, ingest.ratio)
                + " (rounds: \(listed(ingest.pairRatios)))",
            String(
                format: "CPU per reading, medians: switchd %.1f µs (all threads), raw like switchd %.1f µs (its thread), the posting client %.1f µs (on the same cores as switchd)",
                median(ingest.switchdCPUPerReading) * 1e6, median(ingest.likeCPUPerRow) * 1e6, median(ingest.clientCPUPerReading) * 1e6
            ),
            tokenLine,
            "",
        ]
        lines.forEach { Swift.print($0) }
        #if DEBUG
        Swift.print("(debug build: these figures are not the product's; scripts/bench measures a release build)")
        #endif
        let json: [String: Double] = [
            "flipToScanningP50Ms": flip.flipToScanning.percentile(50), "flipToScanningP99Ms": flip.flipToScanning.percentile(99),
            "flipToFirstStoredP50Ms": flip.flipToFirstStored.percentile(50), "flipToFirstStoredMaxMs": flip.flipToFirstStored.maximum,
            "ingestPerSecond": ingest.switchdMedian, "rawInsertPerSecond": ingest.rawMedian, "ingestRatio": ingest.ratio,
            "rawLikeSwitchdPerSecond": ingest.likeMedian, "ingestRatioLikeForLike": ingest.likeRatio,
            "switchdCPUPerReadingMicroseconds": median(ingest.switchdCPUPerReading) * 1e6,
            "rawLikeSwitchdCPUPerRowMicroseconds": median(ingest.likeCPUPerRow) * 1e6,
            "clientCPUPerReadingMicroseconds": median(ingest.clientCPUPerReading) * 1e6,
            "tokenCheckFewP50Ms": tokens.few.percentile(50), "tokenCheckManyP50Ms": tokens.many.percentile(50),
            "tokenCheckManyOverFewRate": tokens.manyPerSecond / tokens.fewPerSecond,
        ]
        if let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]) {
            Swift.print(String(decoding: data, as: UTF8.self))
        }
    }
}
