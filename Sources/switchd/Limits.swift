import ScanContract

/// How much one switchd keeps and computes for its clients, so that no client (a script gone
/// wrong, a leaked token) can grow its memory, store or CPU without bound (issue 36).
struct Limits: Sendable, Equatable {
    /// Tags that may be registered at once; creating one more is 409 `conflict`, naming the limit.
    static let defaultMaxTags = 10_000
    /// Webhook subscriptions that may exist at once; creating one more is 409 `conflict`, naming the limit.
    static let defaultMaxWebhooks = 100
    /// Readings one `POST /v1/locate` may carry (422 naming `measurements` above it): matching
    /// costs about 0.14 ms of CPU a reading, so 2,000 cost at most about 0.3 s.
    static let defaultMaxLocateReadings = 2_000
    /// Readings one token may have located per minute (429 with `Retry-After` beyond it).
    static let defaultLocateReadingsPerMinute = 20_000

    var maxTags = defaultMaxTags
    var maxWebhooks = defaultMaxWebhooks
    var maxLocateReadings = defaultMaxLocateReadings
    var locateReadingsPerMinute = defaultLocateReadingsPerMinute
}
