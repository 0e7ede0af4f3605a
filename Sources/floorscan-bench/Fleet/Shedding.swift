import Harness

/// How switchd shed load in a fleet run: its counters of connections and uploads refused, and
/// the warnings it logged about it (each is logged once per episode).
struct Shedding {
    /// Times every connection was busy and idle ones were closed to make room.
    var connectionLimitReached: Double
    /// Connections answered 503 `overloaded` and closed.
    var connectionsRefused: Double
    /// Uploads answered 503 `busy` (ingest queue full).
    var uploadsRefused: Double
    /// switchd's log lines about limits and shedding.
    var logLines: [String]

    /// Read from switchd's `/metrics` (nil when it did not answer: counted as NaN) and its log.
    init(samples: PrometheusSamples?, log: String) {
        connectionLimitReached = samples?["switchd_connection_limit_reached_total"] ?? .nan
        connectionsRefused = samples?["switchd_connections_refused_total"] ?? .nan
        uploadsRefused = samples?["switchd_ingest_busy_total"] ?? .nan
        logLines = log.split(separator: "\n").map(String.init).filter { line in
            Self.logMarks.contains { line.contains($0) }
        }
    }

    private static let logMarks = ["open-file limit", "Connection limit reached", "overloaded", "Ingest queue full", "descriptor"]
}
