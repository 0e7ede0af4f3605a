import DaemonSupport
import Foundation
import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Marks scanners offline: one whose last counter report is `silence` (`--scanner-offline-after`)
/// old gets a `scannerOffline` event (``AppDatabase/markSilentScannersOffline(silence:at:)``),
/// announced on the event feeds, so it reaches `/v1/events`, webhooks and MQTT like a presence
/// event. A report brings it back (``ScannerCountersController``, `scannerOnline`).
///
/// Reports are timed on switchd's wall clock (`now`), the wait until the next scanner may fall
/// silent runs on `clock`; a report received wakes it (`feeds.scannerReports`), and so does the
/// deadline, when it reads the reports again (another instance may have received newer ones).
/// With no scanner online it looks again every `silence` of real time (a report to another
/// instance wakes nothing here), off `clock`, so an idle switchd adds no sleeper to a test's clock.
/// A database failure is logged and retried ``retryInterval`` later. Ends on graceful shutdown.
struct ScannerOfflineService: Service {
    let database: AppDatabase
    let feeds: Feeds
    let silence: Duration
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date
    let logger: Logger

    static var retryInterval: Duration { .seconds(1) }

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let seen = await feeds.scannerReports.value
            let wait: Duration?
            do {
                wait = try await markSilentOffline()
            } catch {
                logger.error("Could not check which scanners are offline", metadata: ["error": "\(error)"])
                wait = Self.retryInterval
            }
            let reports = feeds.scannerReports
            let reported: @Sendable () async -> Void = { await reports.wait(untilAbove: seen) }
            let woke = if let wait {
                await wake(after: wait, on: clock, orWhen: reported)
            } else {
                await wake(after: silence, on: ContinuousClock(), orWhen: reported)
            }
            if woke == .stopping { return }
        }
    }

    /// Marks the silent scanners offline and announces their events; returns how long until the
    /// next online scanner falls silent if nothing more is heard, nil when none is online.
    func markSilentOffline() async throws -> Duration? {
        let events = try await database.markSilentScannersOffline(silence: silence, at: now())
        for event in events {
            logger.warning("Scanner offline: no report for \(silence)", metadata: ["scanner": "\(event.scannerID?.rawValue ?? "")"])
        }
        if let last = events.last {
            await feeds.events.publish(upTo: last.id)
            await feeds.tagEvents.publish(upTo: last.id)
        }
        guard let oldest = try await database.oldestOnlineScannerReport() else { return nil }
        let remaining = oldest.timeIntervalSince(now()) + silence.seconds
        return Duration(secondsRoundedUp: max(0, remaining)) + .milliseconds(1)
    }
}
