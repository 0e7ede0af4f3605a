import DaemonSupport
import Foundation
import Logging
import ServiceLifecycle
import SwitchdStore

/// `--keep-days`: once at start and then every ``interval``, deletes the history older than
/// `keep` (``AppDatabase/pruneHistory(before:chunk:)`` says what goes and what stays).
///
/// A failing pass is logged and the next one carries on where it stopped. Ends on graceful
/// shutdown. Deleted rows leave free pages that SQLite reuses: the file stops growing rather than
/// shrinking.
struct HistoryRetentionService: Service {
    let database: AppDatabase
    let keep: Duration
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    var now: @Sendable () -> Date = Date.init

    static let interval = Duration.seconds(3600)

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            await prune()
            do {
                try await cancelWhenGracefulShutdown { [clock] in try await clock.sleep(for: Self.interval) }
            } catch {
                return  // Cancelled or shutting down.
            }
        }
    }

    private func prune() async {
        let cutoff = now().addingTimeInterval(-keep.seconds)
        do {
            let pruned = try await database.pruneHistory(before: cutoff)
            guard pruned.total > 0 else { return }
            logger.info("Deleted history older than --keep-days", metadata: [
                "before": "\(cutoff)", "readings": "\(pruned.readings)", "batches": "\(pruned.batches)",
                "positions": "\(pruned.positions)", "tagPositions": "\(pruned.tagPositions)", "sightings": "\(pruned.sightings)",
                "events": "\(pruned.events)", "deliveries": "\(pruned.deliveries)",
            ])
        } catch {
            logger.error("Could not delete old history; the next pass tries again", metadata: ["error": "\(error)"])
        }
    }
}
