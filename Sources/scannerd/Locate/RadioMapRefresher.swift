import DaemonSupport

/// Keeps the radio map current in the background, so a locate session never waits for a
/// download: the session positions with the copy the ``RadioMapCache`` holds (the one on disk
/// until a fetch succeeds) while this service asks switchd for a newer one (with the copy's ETag).
///
/// A locate session beginning asks for a fetch at once; each cycle it completes asks for one
/// when the last fetch began at least `interval` ago on `clock`. Fetches run one at a time;
/// requests made during one are merged into at most one more. A fetch that fails is logged by
/// the cache and the held copy stays in use. Graceful shutdown cancels a fetch in flight.
struct RadioMapRefresher: DaemonService, CustomStringConvertible {
    enum Request: Sendable {
        /// A locate session began: fetch now.
        case sessionBegan
        /// A locate cycle ended: fetch when the last fetch is older than the interval.
        case cycleEnded
    }

    /// Which requests lead to a fetch.
    struct Schedule: Sendable {
        let interval: Duration
        private var lastFetch: Duration?

        init(interval: Duration) {
            self.interval = interval
        }

        /// Whether `request`, made `now` (time since the refresher started), fetches; when it
        /// does, the interval runs from now.
        mutating func fetches(_ request: Request, at now: Duration) -> Bool {
            if case .cycleEnded = request, let lastFetch, now - lastFetch < interval { return false }
            lastFetch = now
            return true
        }
    }

    let cache: RadioMapCache
    let interval: Duration
    private let time: ElapsedTime
    private let requests: AsyncStream<Request>
    private let continuation: AsyncStream<Request>.Continuation

    var description: String { "RadioMapRefresher" }

    init(cache: RadioMapCache, interval: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.cache = cache
        self.interval = interval
        time = ElapsedTime(clock)
        (requests, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Returns at once; the fetch, if one is due, happens in ``run()``.
    func request(_ request: Request) {
        continuation.yield(request)
    }

    func run() async {
        _ = try? await GracefulShutdown.cancelling { [self] in
            var schedule = Schedule(interval: interval)
            for await request in requests where schedule.fetches(request, at: time.now) {
                await cache.refresh()
            }
        }
    }
}
