import Logging
import ScanContract
import DaemonSupport

/// Posts the positions computed on the device to switchd, one at a time, in order. A position
/// switchd refuses (4xx) is logged and dropped; one that cannot be delivered is retried with
/// backoff. While switchd is away the newest ``queueLimit`` positions wait and older ones are
/// dropped: integrators want where the scanner is now.
struct PositionPoster: DaemonService, CustomStringConvertible {
    let positions: AsyncStream<NewPosition>
    let api: SwitchdAPI
    let logger: Logger
    /// The retry delays run on this clock.
    var clock: any Clock<Duration> = ContinuousClock()

    /// How many positions wait for switchd before the oldest are dropped.
    static let queueLimit = 64

    var description: String { "PositionPoster" }

    /// Ends at once on graceful shutdown, even mid-retry: positions still waiting are not worth
    /// delaying a stop for (they describe the past; measurements are what the spool keeps).
    func run() async {
        try? await GracefulShutdown.cancelling {
            var backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(5))
            for await position in positions {
                while !Task.isCancelled {
                    do {
                        _ = try await api.postPosition(position)
                        backoff.reset()
                        break
                    } catch let error as SwitchdAPIError where (error.status ?? 0) / 100 == 4 {
                        logger.error("switchd refused a position; dropped", metadata: ["error": "\(error)"])
                        break
                    } catch {
                        if Task.isCancelled { return }
                        logger.warning("could not post a position; retrying", metadata: ["error": "\(error)"])
                        try await clock.sleep(for: backoff.nextDelay())
                    }
                }
            }
        }
    }
}
