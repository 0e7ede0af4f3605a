import Foundation
import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Looks for silent beacons (``AppDatabase/markSilentBeacons(silence:)``) every
/// ``checkInterval(for:)``, and for faded ones (``AppDatabase/markFadedBeacons(_:)``, reading a
/// beacon's sightings of two windows) every ``fadeInterval``, and announces their events on the event feeds, so they
/// reach `/v1/events`, webhooks and MQTT like a presence event. Whether a beacon is silent is read
/// from the sightings' own times, so a late check raises the same events at the same times: the
/// interval runs on real time, off the test clock (no sleeper added to a test's driven clock),
/// and tests call ``check()`` or the store directly. A database failure is logged and retried at
/// the next check. Ends on graceful shutdown.
struct BeaconSilenceService: Service {
    let database: AppDatabase
    let feeds: Feeds
    let silence: Duration
    let fade: BeaconFadeRule
    /// How long a placed scanner must not have heard a beacon for hearing it to be news
    /// (``AppDatabase/markNewBeaconScanners(after:)``, looked for at every check).
    var newAfter: Duration = .seconds(Settings.defaultBeaconNewAfterSeconds)
    let logger: Logger

    /// How often fades are looked for: they build over days.
    static let fadeInterval = Duration.seconds(3600)

    /// A tenth of the silence, at most a minute: an event is raised at most that late.
    static func checkInterval(for silence: Duration) -> Duration {
        min(silence / 10, .seconds(60))
    }

    func run() async throws {
        let clock = ContinuousClock()
        var fadeDue = clock.now
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await check(fades: clock.now >= fadeDue)
                if clock.now >= fadeDue { fadeDue = clock.now.advanced(by: Self.fadeInterval) }
            } catch {
                logger.error("Could not check which beacons are silent", metadata: ["error": "\(error)"])
            }
            let woke = await wake(after: Self.checkInterval(for: silence), on: ContinuousClock()) { await neverReturns() }
            if woke == .stopping { return }
        }
    }

    func check(fades: Bool) async throws {
        var events = try await database.markSilentBeacons(silence: silence)
        for event in events {
            logger.warning("Beacon silent: no scanner that heard it hears it", metadata: ["beacon": "\(event.beaconID.map(String.init) ?? "")"])
        }
        let heardAnew = try await database.markNewBeaconScanners(after: newAfter)
        for event in heardAnew {
            logger.notice("Beacon heard by a scanner that had not heard it", metadata: [
                "beacon": "\(event.beaconID.map(String.init) ?? "")", "scanner": "\(event.scannerID?.rawValue ?? "")",
            ])
        }
        events += heardAnew
        if fades {
            let faded = try await database.markFadedBeacons(fade)
            for event in faded {
                logger.warning("Beacon faded: its scanners hear it weaker", metadata: ["beacon": "\(event.beaconID.map(String.init) ?? "")"])
            }
            events += faded
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
