import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Turns stored positions of scanners and tags into presence events, and marks them `away`.
///
/// Follows the position table and the tag position table, each from its stored cursor (however
/// a position was stored: posted by a scanner, computed in switchd, or a tag's window closed),
/// passing each through ``PresenceRules`` (a tag's through ``PresenceRules/forTags``); the
/// events, the states and the cursor are committed together
/// (``AppDatabase/derivePresence(of:limit:step:)``), then announced on `feeds.events` and
/// `feeds.tagEvents`. A scanner or tag heard from gets an `away` deadline, its `awayAfter` on
/// `clock` from when its position was read; one known at start gets the full time from then.
/// Ingest never waits on this: it runs beside the API.
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
        var deadlines: [PresenceSubject: AwayDeadline]?
        var cursors: [PresenceSource: Int64] = [:]
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            var wakeAt: C.Instant
            var failed = false
            do {
                var pending: [PresenceSubject: AwayDeadline]
                if let deadlines {
                    pending = deadlines
                } else {
                    pending = try await startingDeadlines()
                }
                for source in PresenceSource.allCases {
                    cursors[source] = try await deriveNewPositions(of: source, deadlines: &pending)
                }
                try await markDueAway(deadlines: &pending)
                deadlines = pending
                wakeAt = pending.values.map(\.due).min() ?? clock.now.advanced(by: Self.idleInterval)
            } catch {
                logger.error("Could not derive presence events", metadata: ["error": "\(error)"])
                wakeAt = clock.now.advanced(by: Self.retryInterval)
                failed = true
            }
            let (positions, tagPositions) = (feeds.positions, feeds.tagPositions)
            // After a failure only the retry time wakes it, so a broken database is not hammered.
            let seen = failed ? Int64.max : cursors[.scanners] ?? 0
            let seenTags = failed ? Int64.max : cursors[.tags] ?? 0
            let stored: @Sendable () async -> Void = {
                await firstOf({ await positions.waitForRows(after: seen) }, { await tagPositions.waitForRows(after: seenTags) })
            }
            if await wake(at: wakeAt, on: clock, orWhen: stored) == .stopping {
                return
            }
        }
    }

    /// Every scanner and tag not away gets its full `awayAfter` from now.
    private func startingDeadlines() async throws -> [PresenceSubject: AwayDeadline] {
        var deadlines: [PresenceSubject: AwayDeadline] = [:]
        for (subject, state) in try await database.presenceStates() where !state.away {
            deadlines[subject] = AwayDeadline(due: clock.now.advanced(by: rules.rules(for: subject).awayAfter), lastPositionID: state.lastPositionID)
        }
        return deadlines
    }

    /// Reads every position of `source` stored since the last call; returns its cursor.
    private func deriveNewPositions(of source: PresenceSource, deadlines: inout [PresenceSubject: AwayDeadline]) async throws -> Int64 {
        let sourceRules = source == .tags ? rules.forTags : rules
        while true {
            let derivation = try await database.derivePresence(of: source, limit: Self.pageSize) { sourceRules.step($0, $1) }
            let due = clock.now.advanced(by: sourceRules.awayAfter)
            for (subject, state) in derivation.heard {
                deadlines[subject] = AwayDeadline(due: due, lastPositionID: state.lastPositionID)
            }
            await announce(derivation.events)
            await (source == .tags ? feeds.tagPresenceRead : feeds.presenceRead).publish(upTo: derivation.cursor)
            if derivation.positionsRead < Self.pageSize { return derivation.cursor }
        }
    }

    private func markDueAway(deadlines: inout [PresenceSubject: AwayDeadline]) async throws {
        let now = clock.now
        for (subject, deadline) in deadlines.sorted(by: { $0.key < $1.key }) where deadline.due <= now {
            let subjectRules = rules.rules(for: subject)
            let events = try await database.updatePresence(of: subject, ifLastPosition: deadline.lastPositionID) { subjectRules.away($0) }
            deadlines[subject] = nil
            if !events.isEmpty {
                switch subject {
                case .scanner(let id): logger.info("Scanner away", metadata: ["scanner": "\(id)"])
                case .tag(let id): logger.info("Tag away", metadata: ["tag": "\(id)"])
                }
            }
            await announce(events)
        }
    }

    /// Both event feeds follow `presence_event`: `/v1/events` and each tag's.
    private func announce(_ events: [PresenceEvent]) async {
        guard let last = events.last else { return }
        await feeds.events.publish(upTo: last.id)
        await feeds.tagEvents.publish(upTo: last.id)
    }
}

/// Returns when either wait returns (the other is cancelled), or on cancellation.
private func firstOf(_ first: @escaping @Sendable () async -> Void, _ second: @escaping @Sendable () async -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask(operation: first)
        group.addTask(operation: second)
        await group.next()
        group.cancelAll()
    }
}
