import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// On PostgreSQL, makes what other switchd instances commit wake this one's waiters, as its own
/// commits do (docs/scale-out.md, "Fan-out across instances"): a switch revision raises the
/// scanner's watermark in ``SwitchHub`` (its held long-polls and switch streams re-read the
/// switch), a new end of the measurement feed raises ``Feeds/measurements`` (live feeds read
/// the new readings), a new presence event raises ``Feeds/events`` and ``Feeds/tagEvents`` (event
/// feeds and the webhook outbox read it; a tag's events are presence events).
///
/// Each channel has a listening connection of its own. Once it is listening, the watermarks are
/// raised to what the store holds (every scanner's current revision, the feed's end), so what
/// was committed before, or while a dropped connection was deaf, is announced too. A dropped or
/// refused connection is logged and tried again ``retryInterval`` later; meanwhile waiters fall
/// back to their timeouts, never to a wrong answer. Ends on graceful shutdown.
struct ClusterFanOutService: Service {
    let database: AppDatabase
    let hub: SwitchHub
    let measurements: SequenceFeed
    /// ``Feeds/events`` and ``Feeds/tagEvents``: both follow the `presence_event` table.
    let events: [SequenceFeed]
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()

    static let retryInterval = Duration.seconds(1)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await follow("switch revisions", listen: listenForSwitches) }
                group.addTask { await follow("the measurement feed", listen: listenForMeasurements) }
                group.addTask { await follow("presence events", listen: listenForEvents) }
                await group.waitForAll()
            }
        }
    }

    private func listenForSwitches() async throws {
        try await database.listenForSwitchRevisions(listening: {
            await resync("switch revisions") { await hub.publish(try await database.currentSwitches()) }
        }) { scannerText, revision in
            guard let scannerID = try? ScannerID(scannerText) else { return }
            await hub.publish(revision: revision, of: scannerID)
        }
    }

    private func listenForMeasurements() async throws {
        try await database.listenForMeasurementFeed(listening: {
            await resync("the measurement feed") { await measurements.publish(upTo: try await database.endOfMeasurementFeed()) }
        }) { sequence in
            await measurements.publish(upTo: sequence)
        }
    }

    private func listenForEvents() async throws {
        try await database.listenForPresenceEventFeed(listening: {
            await resync("presence events") { await publishEvents(upTo: try await database.endOfPresenceEventFeed()) }
        }) { id in
            await publishEvents(upTo: id)
        }
    }

    private func publishEvents(upTo id: Int64) async {
        for feed in events {
            await feed.publish(upTo: id)
        }
    }

    /// Raises watermarks from the store; a failure is logged, and the next notification (or the
    /// next reconnection) makes up for it.
    private func resync(_ what: String, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            logger.error("Could not read the store to catch up on \(what) after listening", metadata: ["error": "\(error)"])
        }
    }

    /// Runs `listen` again whenever it ends, until cancelled.
    private func follow(_ what: String, listen: @Sendable () async throws -> Void) async {
        while !Task.isCancelled {
            do {
                try await listen()
            } catch {
                guard !Task.isCancelled else { return }
                logger.warning("Not listening to other instances' \(what); listening again", metadata: ["error": "\(error)"])
            }
            do {
                try await clock.sleep(for: Self.retryInterval)
            } catch {
                return
            }
        }
    }
}
