import Foundation
import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Looks for silent beacons (``AppDatabase/markSilentBeacons(silence:)``) every
/// ``checkInterval(for:)`` and announces their `beaconSilent` events on the event feeds, so they
/// reach `/v1/events`, webhooks and MQTT like a presence event. Whether a beacon is silent is read
/// from the sightings' own times, so a late check raises the same events at the same times: the
/// interval runs on real time, off the test clock (no sleeper added to a test's driven clock),
/// and tests call ``check()`` or the store directly. A database failure is logged and retried at
/// the next check. Ends on graceful shutdown.
struct BeaconSilenceService: Service {
    let database: AppDatabase
    let feeds: Feeds
    let silence: Duration
    let logger: Logger

    /// A tenth of the silence, at most a minute: an event is raised at most that late.
    static func checkInterval(for silence: Duration) -> Duration {
        min(silence / 10, .seconds(60))
    }

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await check()
            } catch {
                logger.error("Could not check which beacons are silent", metadata: ["error": "\(error)"])
            }
            let woke = await wake(after: Self.checkInterval(for: silence), on: ContinuousClock()) { await neverReturns() }
            if woke == .stopping { return }
        }
    }

    func check() async throws {
        let events = try await database.markSilentBeacons(silence: silence)
        for event in events {
            logger.warning("Beacon silent: no scanner that heard it hears it", metadata: ["beacon": "\(event.beaconID.map(String.init) ?? "")"])
        }
        if let last = events.last {
            await feeds.events.publish(upTo: last.id)
        }
    }
}

/// Waits until cancelled.
private func neverReturns() async {
    let (stream, _) = AsyncStream.makeStream(of: Never.self)
    for await _ in stream {}
}
