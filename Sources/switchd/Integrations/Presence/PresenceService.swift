import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Turns stored positions into presence events, and marks scanners `away`.
///
/// Follows the position table from its stored cursor (whichever way a position was stored: posted
/// by a scanner or computed in switchd), passing each through ``PresenceRules``; the events, the
/// states and the cursor are committed together (``AppDatabase/derivePresence(limit:step:)``),
/// then announced on `feeds.events`. A scanner heard from gets an `away` deadline `awayAfter` on
/// `clock` from when its position was read; a scanner known at start gets the full time from
/// then. Ingest never waits on this: it runs beside the API.
///
/// A failing database read or write is logged and retried ``retryInterval`` later; nothing is
/// lost, the cursor did not move. Ends on graceful shutdown.
struct PresenceService<C: Clock<Duration>>: Service {
    let database: AppDatabase
    let rules: PresenceRules
    let feeds: Feeds
    let clock: C
    let logger: Logger

    static var pageSize: Int { 500 }
    static var retryInterval: Duration { .seconds(1) }
    /// How long to wait with no `away` deadline pending before looking again; positions wake it sooner.
    static var idleInterval: Duration { .seconds(3600) }

    private struct AwayDeadline {
        var due: C.Instant
        /// The position the deadline counts from; a newer one cancels it.
        var lastPositionID: Int64
    }

    func run() async throws {
        var deadlines: [ScannerID: AwayDeadline]?
        var cursor: Int64 = 0
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            var wakeAt: C.Instant
            var failed = false
            do {
                var pending: [ScannerID: AwayDeadline]
                if let deadlines {
                    pending = deadlines
                } else {
                    pending = try await startingDeadlines()
                }
                cursor = try await deriveNewPositions(deadlines: &pending)
                try await markDueAway(deadlines: &pending)
                deadlines = pending
                wakeAt = pending.values.map(\.due).min() ?? clock.now.advanced(by: Self.idleInterval)
            } catch {
                logger.error("Could not derive presence events", metadata: ["error": "\(error)"])
                wakeAt = clock.now.advanced(by: Self.retryInterval)
                failed = true
            }
            let positions = feeds.positions
            // After a failure only the retry time wakes it, so a broken database is not hammered.
            let seen = failed ? Int64.max : cursor
            if await wake(at: wakeAt, on: clock, orWhen: { await positions.waitForRows(after: seen) }) == .stopping {
                return
            }
        }
    }

    /// Every scanner not away gets the full `awayAfter` from now.
    private func startingDeadlines() async throws -> [ScannerID: AwayDeadline] {
        let due = clock.now.advanced(by: rules.awayAfter)
        var deadlines: [ScannerID: AwayDeadline] = [:]
        for (scannerID, state) in try await database.presenceStates() where !state.away {
            deadlines[scannerID] = AwayDeadline(due: due, lastPositionID: state.lastPositionID)
        }
        return deadlines
    }

    /// Reads every position stored since the last call; returns the cursor.
    private func deriveNewPositions(deadlines: inout [ScannerID: AwayDeadline]) async throws -> Int64 {
        while true {
            let derivation = try await database.derivePresence(limit: Self.pageSize) { [rules] in rules.step($0, $1) }
            let due = clock.now.advanced(by: rules.awayAfter)
            for (scannerID, state) in derivation.heard {
                deadlines[scannerID] = AwayDeadline(due: due, lastPositionID: state.lastPositionID)
            }
            await announce(derivation.events)
            await feeds.presenceRead.publish(upTo: derivation.cursor)
            if derivation.positionsRead < Self.pageSize { return derivation.cursor }
        }
    }

    private func markDueAway(deadlines: inout [ScannerID: AwayDeadline]) async throws {
        let now = clock.now
        for (scannerID, deadline) in deadlines where deadline.due <= now {
            let events = try await database.updatePresence(of: scannerID, ifLastPosition: deadline.lastPositionID) { [rules] in rules.away($0) }
            deadlines[scannerID] = nil
            if !events.isEmpty {
                logger.info("Scanner away", metadata: ["scanner": "\(scannerID)"])
            }
            await announce(events)
        }
    }

    private func announce(_ events: [PresenceEvent]) async {
        guard let last = events.last else { return }
        await feeds.events.publish(upTo: last.id)
    }
}
