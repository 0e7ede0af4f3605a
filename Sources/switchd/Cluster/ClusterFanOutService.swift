import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// On PostgreSQL, makes what other switchd instances commit wake this one's waiters, as its own
/// commits do (docs/scale-out.md, "Fan-out across instances"): a switch revision raises the
/// scanner's watermark in ``SwitchHub`` (its held long-polls and switch streams re-read the
/// switch), a scanner deleted is retired there (they end), a new end of the measurement,
/// position, tag position or presence event feed raises ``Feeds/measurements``,
/// ``Feeds/positions``, ``Feeds/tagPositions`` or ``Feeds/events`` and ``Feeds/tagEvents`` (live
/// feeds, tags' streams and the webhook outbox read the new rows; a tag's events are presence
/// events), and a change of what listening scanners watch bumps ``SwitchHub/watchedTags``
/// (their long-polls read the watched list again), a change of scanner settings bumps
/// ``SwitchHub/settings`` (long-polls holding a settings revision read them again), and a change of rooms' outlines empties
/// ``AppDatabase/outlineCache``. With an MQTT broker, a message put in the
/// MQTT outbox raises ``mqttOutboxAdded`` (the publisher, on whichever instance leads the MQTT
/// bridge, sends it).
///
/// Each channel has a listening connection of its own. Once it is listening, the watermarks are
/// raised to what the store holds (every scanner's current revision, each feed's end), so what
/// was committed before, or while a dropped connection was deaf, is announced too. A dropped or
/// refused connection is logged and tried again ``retryInterval`` later; meanwhile waiters fall
/// back to their timeouts, never to a wrong answer. Ends on graceful shutdown.
struct ClusterFanOutService: Service {
    let database: AppDatabase
    let hub: SwitchHub
    let feeds: Feeds
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    /// ``MQTTStatus/outboxAdded``; nil without a broker (nothing here publishes the outbox).
    var mqttOutboxAdded: Watermark?
    /// Bumped each time this instance's outline cache is emptied for a change announced (and once
    /// per (re)connection), after it is: what a test waits on.
    var outlinesEmptied = Watermark()

    static let retryInterval = Duration.seconds(1)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await follow("switch revisions", listen: listenForSwitches) }
                group.addTask { await follow("the measurement, position, tag position and event feeds and the MQTT outbox", listen: listenForFeeds) }
                group.addTask { await follow("watched list changes", listen: listenForWatchedLists) }
                group.addTask { await follow("room outline changes", listen: listenForOutlines) }
                group.addTask { await follow("scanner settings changes", listen: listenForSettings) }
                group.addTask { await followMeasurementHorizon() }
                await group.waitForAll()
            }
        }
    }

    private func listenForSwitches() async throws {
        try await database.listenForSwitchRevisions(listening: {
            await resync("switch revisions") { await hub.publish(try await database.currentSwitches()) }
        }, retired: { scannerText in
            guard let scannerID = try? ScannerID(scannerText) else { return }
            await hub.retire(scannerID)
        }) { scannerText, revision in
            guard let scannerID = try? ScannerID(scannerText) else { return }
            await hub.publish(revision: revision, of: scannerID)
        }
    }

    private func listenForFeeds() async throws {
        try await database.listenForFeeds(listening: {
            await resync("the measurement feed") { await feeds.measurements.publish(upTo: try await database.endOfMeasurementFeed()) }
            await resync("the position feed") { await feeds.positions.publish(upTo: try await database.endOfPositionFeed()) }
            await resync("the tag position feed") { await feeds.tagPositions.publish(upTo: try await database.endOfTagPositionFeed()) }
            await resync("the event feed") { await publishEvents(upTo: try await database.endOfPresenceEventFeed()) }
            if let mqttOutboxAdded {
                await resync("the MQTT outbox") { await mqttOutboxAdded.raise(to: try await database.lastMQTTOutboxID()) }
            }
        }) { feed, sequence in
            switch feed {
            case .measurement: await feeds.measurements.commit(upTo: sequence)
            case .position: await feeds.positions.publish(upTo: sequence)
            case .tagPosition: await feeds.tagPositions.publish(upTo: sequence)
            case .event: await publishEvents(upTo: sequence)
            case .mqttOutbox: await mqttOutboxAdded?.raise(to: sequence)
            }
        }
    }

    /// How long the horizon follower waits before reading the horizon again while it is below
    /// a sequence committed (a transaction below it is still running).
    static let horizonInterval = Duration.milliseconds(10)

    /// Raises ``Feeds/measurements`` to the measurement feed's horizon (docs/scale-out.md, "The
    /// measurement feed's horizon") whenever a sequence committed here or announced by another
    /// instance is above it: reads the horizon, and again every ``horizonInterval`` until it has
    /// passed that sequence. One read per instance, however many streams wait.
    private func followMeasurementHorizon() async {
        var published: Int64 = 0
        while !Task.isCancelled {
            let committed = await feeds.measurements.waitForCommits(after: published)
            guard !Task.isCancelled else { return }
            do {
                let horizon = try await database.endOfMeasurementFeed()
                await feeds.measurements.publish(upTo: horizon)
                published = max(published, horizon)
                if published >= committed { continue }
            } catch {
                logger.warning("Could not read the measurement feed's horizon; reading it again", metadata: ["error": "\(error)"])
            }
            do {
                try await clock.sleep(for: Self.horizonInterval)
            } catch {
                return
            }
        }
    }

    /// Presence events, tag events among them: both feeds follow the `presence_event` table.
    private func publishEvents(upTo id: Int64) async {
        await feeds.events.publish(upTo: id)
        await feeds.tagEvents.publish(upTo: id)
    }

    /// A tag, placement, beacon or floor changed: long-polls asking for the watched list read it
    /// again. After (re)connecting, they read it once in case a change was missed meanwhile.
    private func listenForWatchedLists() async throws {
        try await database.listenForWatchedListChanges(listening: { await hub.watchedTags.bump() }) {
            await hub.watchedTags.bump()
        }
    }

    /// Scanner settings changed on some instance: long-polls holding a settings revision read
    /// them again (``SwitchHub/settings``); once more after (re)connecting.
    private func listenForSettings() async throws {
        try await database.listenForSettingsChanges(listening: { await hub.settings.bump() }) {
            await hub.settings.bump()
        }
    }

    /// Rooms' outlines changed on some instance: this one's cache of them is emptied, and once
    /// more after (re)connecting, in case a change was missed meanwhile.
    private func listenForOutlines() async throws {
        try await database.listenForOutlineChanges(listening: {
            database.outlineCache.empty()
            await outlinesEmptied.bump()
        }) {
            database.outlineCache.empty()
            await outlinesEmptied.bump()
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
