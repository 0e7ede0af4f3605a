import Foundation

/// Prints the PostgreSQL ingest ratios beside the SQLite ones measured in the same run, as a
/// table for people and one JSON line for machines.
struct PostgresIngestReport {
    let postgres: PostgresIngestBench.Result
    let sqlite: IngestBench.Result?

    func print() {
        func listed(_ ratios: [Double]) -> String { ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ") }
        var lines = [
            "",
            "floorscan ingest against raw inserts (one run, loopback, same counts on both databases)",
            "------------------------------------------------------------------------------",
            String(format: "PostgreSQL: ingest through switchd, median %.0f readings/s over %d rounds of %d readings", median(postgres.switchdPerSecond), postgres.switchdPerSecond.count, postgres.readings)
                + " (rounds: \(rounded(postgres.switchdPerSecond)))",
            String(format: "PostgreSQL: raw COPY, same readings, tables and server: median %.0f rows/s", median(postgres.rawPerSecond))
                + " (rounds: \(rounded(postgres.rawPerSecond)))",
            String(format: "PostgreSQL: raw COPY like switchd (batch row, readings, emitter summary): median %.0f rows/s", median(postgres.likePerSecond))
                + " (rounds: \(rounded(postgres.likePerSecond)))",
            String(format: "PostgreSQL: ingest ratio switchd / raw like switchd, median of %d alternated rounds: %.2f   target ≥ 0.8", postgres.likePairRatios.count, median(postgres.likePairRatios))
                + " (rounds: \(listed(postgres.likePairRatios)))",
            String(format: "PostgreSQL: ingest ratio switchd / raw readings only: %.2f", median(postgres.pairRatios))
                + " (rounds: \(listed(postgres.pairRatios)))",
            String(
                format: "PostgreSQL: on disk per stored reading: %.0f bytes in measurement (with its indexes), %.0f more in batch, emitter_cell and feed_mark",
                postgres.measurementBytesPerReading, postgres.otherIngestBytesPerReading
            ),
        ]
        if let sqlite {
            lines += [
                String(format: "SQLite: ingest through switchd, median %.0f readings/s; raw like switchd %.0f rows/s", sqlite.switchdMedian, sqlite.likeMedian),
                String(format: "SQLite: ingest ratio switchd / raw like switchd: %.2f; / raw readings only: %.2f", sqlite.likeRatio, sqlite.ratio)
                    + " (rounds: \(listed(sqlite.likePairRatios)))",
            ]
        }
        lines.append("")
        lines.forEach { Swift.print($0) }
        #if DEBUG
        Swift.print("(debug build: these figures are not the product's; build floorscan in release mode for them)")
        #endif
        var json: [String: Double] = [
            "postgresIngestPerSecond": median(postgres.switchdPerSecond), "postgresRawCopyPerSecond": median(postgres.rawPerSecond),
            "postgresRawLikeSwitchdPerSecond": median(postgres.likePerSecond),
            "postgresMeasurementBytesPerReading": postgres.measurementBytesPerReading,
            "postgresOtherIngestBytesPerReading": postgres.otherIngestBytesPerReading,
            "postgresIngestRatioLikeForLike": median(postgres.likePairRatios), "postgresIngestRatio": median(postgres.pairRatios),
        ]
        if let sqlite {
            json["sqliteIngestPerSecond"] = sqlite.switchdMedian
            json["sqliteIngestRatioLikeForLike"] = sqlite.likeRatio
            json["sqliteIngestRatio"] = sqlite.ratio
        }
        if let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]) {
            Swift.print(String(decoding: data, as: UTF8.self))
        }
    }
}
