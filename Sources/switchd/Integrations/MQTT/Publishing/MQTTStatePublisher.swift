import Foundation
import Logging
import ScanContract
import SwitchdStore

/// What one connection publishes after CONNACK: every scanner's and tag's discovery
/// configuration and retained state first, then, as they are stored, new positions (scanners'
/// and tags'), switch changes, availability changes, receivers' reports, readings (with
/// `--mqtt-raw-measurements`) and the outbox. Reads the database, never the other way round: the
/// rest of switchd only raises watermarks.
struct MQTTStatePublisher: Sendable {
    let settings: MQTTSettings
    let session: MQTTSession
    let database: AppDatabase
    let hub: SwitchHub
    let feeds: Feeds
    let status: MQTTStatus
    let commands: MQTTSwitchCommands?
    let logger: Logger
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date
    /// Raised by Home Assistant's birth message: publish everything again.
    let republishRequests = Watermark()

    /// Readings and positions are read this many at a time.
    static let sliceSize = 500
    /// How long to wait when no scanner is about to time out and nothing changes.
    static let idleInterval = Duration.seconds(3600)
    /// How often, in seconds, receivers' reports are read while a scanner is placed (their
    /// rates, contacts and offsets): sightings wake nothing else.
    static let receiverInterval = 10.0

    var topics: MQTTTopics { settings.topics }
    var discovery: Discovery? { settings.discoveryPrefix.map { Discovery(topics: topics, discoveryPrefix: $0) } }

    /// Publishes until graceful shutdown (returns) or the connection fails (throws).
    func run() async throws {
        var state = PublishedState()
        var republishMark = await republishRequests.value
        try await publishEverything(&state)
        while true {
            let outboxMark = await status.outboxAdded.value
            if await republishRequests.value > republishMark {
                republishMark = await republishRequests.value
                logger.info("Home Assistant came online: publishing discovery and state again")
                try await publishEverything(&state)
            }
            try await catchUp(&state)
            try await drainOutbox()
            let timeout = state.untilNextTimeout(at: now(), timeout: settings.scannerTimeout) ?? Self.idleInterval
            let (hub, feeds, outboxAdded, republishRequests) = (hub, feeds, status.outboxAdded, republishRequests)
            let (switchMark, watchedMark, positions, tagPositions) = (state.switchMark, state.watchedMark, state.positionCursor, state.tagPositionCursor)
            let (readings, republished, telemetryMark) = (state.measurementCursor, republishMark, state.telemetryMark)
            let woke = await wake(after: timeout, on: clock) {
                await firstOf([
                    { await hub.anyChange.wait(untilAbove: switchMark) },
                    { await hub.watchedTags.wait(untilAbove: watchedMark) },
                    { await feeds.positions.waitForRows(after: positions) },
                    { await feeds.tagPositions.waitForRows(after: tagPositions) },
                    { await feeds.measurements.waitForRows(after: readings) },
                    { await outboxAdded.wait(untilAbove: outboxMark) },
                    { await republishRequests.wait(untilAbove: republished) },
                    { await feeds.telemetry.wait(untilAbove: telemetryMark) },
                ])
            }
            if woke == .stopping { return }
        }
    }

    /// Handles what the broker delivers: Home Assistant's birth message and switch commands.
    func handle(_ inbox: AsyncStream<MQTTMessage>) async throws {
        for await message in inbox {
            if message.topic == topics.homeAssistantStatus, message.payload == Array("online".utf8) {
                await republishRequests.bump()
            } else if let commands, let scanner = topics.scannerOfSwitchCommand(message.topic) {
                try await session.publish(await commands.apply(message.payload, to: scanner))
            }
        }
    }

    /// Forgets what was published and publishes all of it again, from the database, after the
    /// outbox: what waits there happened before now (a deleted scanner's removal among it), so
    /// it goes before the state as it is now.
    private func publishEverything(_ state: inout PublishedState) async throws {
        state = PublishedState()
        state.deletionMark = await hub.deletions(after: 0).mark
        try await drainOutbox()
        state.positionCursor = try await database.endOfPositionFeed()
        state.tagPositionCursor = try await database.endOfTagPositionFeed()
        state.measurementCursor = try await database.endOfMeasurementFeed()
        state.sightingCursor = try await database.lastSightingID()
        state.receiverRates.since = now()
        let latest = try await database.latestPositions(of: nil)
        state.moving = Set(latest.map(\.scannerID))
        state.watchedMark = await hub.watchedTags.value
        try await refreshScanners(&state, placementsChanged: true)
        try await publishPositions(latest, &state)
        try await refreshTags(&state, withLatestPositions: true)
        try await refreshReceivers(&state, force: true)
        try await refreshAvailability(&state)
        try await publishTelemetry(&state)
    }

    private func catchUp(_ state: inout PublishedState) async throws {
        let watched = await hub.watchedTags.value
        let watchedChanged = watched != state.watchedMark
        state.watchedMark = watched
        try await refreshScanners(&state, placementsChanged: watchedChanged)
        if watchedChanged { try await refreshTags(&state, withLatestPositions: false) }
        let moving = state.moving
        while true {
            let slice = try await database.positions(matching: PositionFilter(), after: state.positionCursor, limit: Self.sliceSize)
            guard let last = slice.items.last else { break }
            try await publishPositions(slice.items, &state)
            state.positionCursor = last.id
        }
        // A scanner that computed its first position moves: a receiver gains its tracker.
        if state.moving != moving { try await refreshScanners(&state, placementsChanged: false) }
        try await catchUpTagPositions(&state)
        try await publishReadings(&state)
        try await refreshReceivers(&state, force: watchedChanged)
        try await refreshAvailability(&state)
        if await feeds.telemetry.value != state.telemetryMark || watchedChanged { try await publishTelemetry(&state) }
    }

    /// When switches moved: discovery for new scanners, removal for gone ones, changed switches.
    /// When placements may have changed (or a scanner started to move): discovery again for each
    /// scanner whose role changed (``Discovery/ScannerRole``), which also removes the entities of
    /// its former role; a scanner no longer placed has its receiver report emptied.
    ///
    /// A scanner deleted through the API is forgotten here, after the outbox is sent: its
    /// removal is there (committed before the hub heard of the delete), so it reaches the broker
    /// before a scanner registered again under its ID is announced.
    private func refreshScanners(_ state: inout PublishedState, placementsChanged: Bool) async throws {
        let deletions = await hub.deletions(after: state.deletionMark)
        if !deletions.scanners.isEmpty {
            try await drainOutbox()
            for scanner in deletions.scanners { state.forget(scanner) }
            state.deletionMark = deletions.mark
        }
        let mark = await hub.anyChange.value
        let switched = mark != state.switchMark
        state.switchMark = mark
        let scanners = switched ? try await database.scanners() : state.scanners.values.sorted { $0.id.rawValue < $1.id.rawValue }
        if switched || placementsChanged {
            state.placements = Dictionary(try await database.placements().map { ($0.scannerID, $0) }, uniquingKeysWith: { $1 })
        }
        var messages: [MQTTMessage] = []
        var newlyDiscovered: [ScannerID] = []
        for scanner in scanners {
            let role = Discovery.ScannerRole.of(placed: state.placements[scanner.id] != nil, moves: state.moving.contains(scanner.id))
            let previous = state.roles[scanner.id]
            guard previous != role else { continue }
            if let discovery { messages += try discovery.announce(scanner, role: role, replacing: previous ?? []) }
            if previous?.contains(.receiver) == true, !role.contains(.receiver) {
                messages.append(MQTTMessage(topic: topics.receiver(scanner.id), payload: [], qos: .atLeastOnce, retain: true))
                state.receivers[scanner.id] = nil
            }
            if state.roles[scanner.id] == nil { newlyDiscovered.append(scanner.id) }
            state.roles[scanner.id] = role
        }
        try await publishAll(messages, kind: "discovery")
        if discovery != nil {
            for scanner in newlyDiscovered {
                try await database.setMQTTDiscovered(scanner.rawValue, true)
            }
            if switched {
                let present = Set(scanners.map(\.id.rawValue))
                for gone in try await database.mqttDiscoveredScanners().subtracting(present).sorted() {
                    try await removeScanner(gone)
                }
            }
        }
        state.scanners = Dictionary(uniqueKeysWithValues: scanners.map { ($0.id, $0) })
        guard switched else { return }
        messages = []
        for scanner in scanners {
            let scanSwitch = try await database.currentSwitch(of: scanner.id)
            guard state.switchRevisions[scanner.id] != scanSwitch.revision else { continue }
            state.switchRevisions[scanner.id] = scanSwitch.revision
            messages.append(try .json(scanSwitch, topic: topics.scanSwitch(scanner.id), retain: true))
        }
        try await publishAll(messages, kind: "switch")
    }

    /// Removes a scanner deleted while no broker was configured, or before discovery was
    /// recorded as removed, from Home Assistant, and clears its retained topics. (A scanner
    /// deleted through the API with a broker configured has its removal in the outbox.)
    private func removeScanner(_ rawID: String) async throws {
        guard let scanner = try? ScannerID(rawID) else {
            logger.error("A scanner ID in mqtt_discovered_scanner is not valid; left alone", metadata: ["scanner": "\(rawID)"])
            return
        }
        try await publishAll(topics.removal(of: scanner), kind: "discovery")
        try await database.setMQTTDiscovered(rawID, false)
        logger.info("Scanner gone: removed from Home Assistant", metadata: ["scanner": "\(scanner)"])
    }

    /// The position and room of each position newer than the last published for its scanner.
    private func publishPositions(_ positions: [Position], _ state: inout PublishedState) async throws {
        guard !positions.isEmpty else { return }
        let (floorNames, roomNames) = try await placeNames()
        var messages: [MQTTMessage] = []
        let heardBy = now()
        for position in positions {
            let scanner = position.scannerID
            state.scannerContacts.heard(from: scanner, at: min(position.time, heardBy))
            state.moving.insert(scanner)
            // A late upload of an older position does not replace a newer one.
            if let published = state.positionTimes[scanner], position.time < published { continue }
            state.positionTimes[scanner] = position.time
            let roomName = position.roomID.flatMap { roomNames[$0] }
            let message = PositionMessage(position, floorName: floorNames[position.floor] ?? nil, roomName: roomName)
            messages.append(try .json(message, topic: topics.position(scanner), retain: true))
            let room = roomName ?? "unknown"
            if state.rooms[scanner] != room {
                state.rooms[scanner] = room
                messages.append(MQTTMessage(topic: topics.room(scanner), text: room, qos: .atLeastOnce, retain: true))
            }
        }
        try await publishAll(messages, kind: "position")
    }

    /// New readings, QoS 0, when `--mqtt-raw-measurements` asks; otherwise only moves the cursor.
    private func publishReadings(_ state: inout PublishedState) async throws {
        guard settings.publishesMeasurements else {
            state.measurementCursor = try await database.endOfMeasurementFeed()
            return
        }
        while true {
            let slice = try await database.measurements(matching: MeasurementFilter(), after: state.measurementCursor, limit: Self.sliceSize)
            guard let last = slice.items.last else { break }
            let messages = try slice.items.map { try MQTTMessage.json($0, topic: topics.measurements($0.scannerID), qos: .atMostOnce, retain: false) }
            try await publishAll(messages, kind: "measurement")
            state.measurementCursor = last.sequence
        }
    }

    /// The names of every floor (nil when it has none) and room, by ID.
    func placeNames() async throws -> (floors: [Int64: String?], rooms: [Int64: String]) {
        let floorNames = Dictionary(uniqueKeysWithValues: try await database.floors().map { ($0.id, $0.name) })
        let roomNames = Dictionary(uniqueKeysWithValues: try await database.rooms(onFloor: nil).map { ($0.id, $0.name) })
        return (floorNames, roomNames)
    }

    /// Reads new batch receipts and publishes every scanner's and tag's availability and
    /// last-seen time that changed.
    private func refreshAvailability(_ state: inout PublishedState) async throws {
        let (contacts, lastBatch) = try await database.lastBatchContacts(after: state.batchCursor)
        state.batchCursor = lastBatch
        for (scanner, time) in contacts { state.scannerContacts.heard(from: scanner, at: time) }
        let (now, timeout, topics) = (now(), settings.scannerTimeout, topics)
        let scanners = state.scanners.keys.sorted(by: { $0.rawValue < $1.rawValue })
        var messages = state.scannerContacts.changes(of: scanners, at: now, timeout: timeout) { (topics.availability($0), topics.lastSeen($0)) }
        messages += state.tagContacts.changes(of: state.tags.keys.sorted(), at: now, timeout: timeout) {
            (topics.tagAvailability($0), topics.tagLastSeen($0))
        }
        try await publishAll(messages, kind: "availability")
    }

    /// Sends the outbox in order, deleting each slice once the broker has taken all of it. A
    /// message that can never be published is moved to the dead letters with its reason and
    /// logged, and the ones after it go (``MQTTOutboxEntry/unpublishableReason``).
    private func drainOutbox() async throws {
        while true {
            let entries = try await database.mqttOutbox(after: 0, limit: Self.sliceSize)
            guard let last = entries.last?.id else { break }
            var messages: [MQTTMessage] = []
            for entry in entries {
                guard let reason = entry.unpublishableReason else {
                    messages.append(entry.message)
                    continue
                }
                try await database.deadLetterMQTTOutbox(entry.id ?? 0, reason: reason, at: now())
                logger.error("An MQTT outbox message can never be published: moved to mqtt_outbox_dead", metadata: [
                    "id": "\(entry.id ?? 0)", "reason": "\(reason)", "topicBytes": "\(entry.topic.utf8.count)",
                ])
            }
            try await publishAll(messages, kind: "outbox")
            try await database.deleteMQTTOutbox(through: last)
        }
        await status.outbox(depth: try await database.mqttOutboxDepth())
    }

    /// Sends every message, then waits for every QoS 1 acknowledgement.
    ///
    /// - Throws: when the connection is lost before all are acknowledged.
    func publishAll(_ messages: [MQTTMessage], kind: String) async throws {
        var waiting: [UInt16] = []
        for message in messages {
            if let packetID = try await session.send(message) { waiting.append(packetID) }
        }
        for packetID in waiting {
            try await session.waitForAcknowledgement(packetID)
        }
        await status.published(messages.count, kind: kind)
    }
}

/// Returns when the first of `waits` returns; the others are cancelled.
func firstOf(_ waits: [@Sendable () async -> Void]) async {
    await withTaskGroup(of: Void.self) { group in
        for wait in waits { group.addTask { await wait() } }
        await group.next()
        group.cancelAll()
    }
}
