/// Says a repeated failure in the log at most once per `interval`, with how many times it
/// happened since the last line, instead of a line each time: a full disk fails every reading,
/// hundreds a second.
struct LogThrottle {
    let interval: Duration
    private var unreported: [String: Int] = [:]
    private var lastLine: Duration?

    init(interval: Duration) {
        self.interval = interval
    }

    /// Notes `count` more of `what`; returns every count not yet reported when a line is due now
    /// (the first failure, or `interval` after the last line), nil otherwise.
    mutating func note(_ count: Int, of what: String, at now: Duration) -> [String: Int]? {
        unreported[what, default: 0] += count
        if let lastLine, now - lastLine < interval { return nil }
        return flush(at: now)
    }

    /// Every count not yet reported, now (the failures have stopped); nil when there is none.
    mutating func flush(at now: Duration) -> [String: Int]? {
        guard !unreported.isEmpty else { return nil }
        defer { unreported = [:] }
        lastLine = now
        return unreported
    }

    var hasUnreported: Bool { !unreported.isEmpty }
}
