import Foundation
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Presence events, webhooks and the MQTT outbox with the same assertions on SQLite and on a real
/// PostgreSQL server (docs/scale-out.md): positions become the same events, once, with the same
/// IDs; the event feed pages and filters alike and tells the same end; webhook deliveries are
/// queued by the schema and recorded alike; the MQTT outbox, its cursor and contacts alike.
@Suite("Presence, webhooks and MQTT on both databases", postgresInstalled, .postgresServer)
struct PostgresPresenceStoreTests {
    static let start = Date(milliseconds: 1_790_000_000_000)
    static let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(90), tagAwayAfter: .seconds(30))

    @Test(arguments: StoreBackend.allCases)
    func positionsBecomeEventsOnceInOrderPagedFilteredAndMarkedAway(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let world = try await PresenceStoreWorld.make(database)
            #expect(try await database.endOfPresenceEventFeed() == 0)
            let nothing = try await Self.derive(database)
            #expect(nothing.positionsRead == 0 && nothing.events.isEmpty)

            // Hall, then office: entered floor, entered hall, left hall, entered office.
            let first = try await world.position(in: world.hall, at: 0)
            let second = try await world.position(in: world.office, at: 2)
            let derivation = try await Self.derive(database)
            #expect(derivation.positionsRead == 2 && derivation.cursor == second)
            #expect(derivation.events.map(\.id) == [1, 2, 3, 4])
            #expect(derivation.events.map(\.kind) == [.entered, .entered, .left, .entered])
            #expect(derivation.events.map(\.roomID) == [nil, world.hall.id, world.hall.id, world.office.id])
            #expect(derivation.events.map(\.positionID) == [first, first, second, second])
            #expect(derivation.heard[.scanner(.default)]?.settled == PresenceSpot(floor: world.floor.id, roomID: world.office.id))

            // Read again: nothing new, the cursor stays.
            let again = try await Self.derive(database)
            #expect(again.positionsRead == 0 && again.events.isEmpty && again.cursor == second)

            let page = try await database.presenceEvents(matching: PresenceEventFilter(), after: 1, limit: 2)
            #expect(page.items == Array(derivation.events[1 ... 2]) && page.endOfFeed == 4)
            #expect(try await database.presenceEvents(matching: PresenceEventFilter(kind: .left), after: 0, limit: 10).items.map(\.id) == [3])
            let other = try ScannerID("other")
            #expect(try await database.presenceEvents(matching: PresenceEventFilter(scannerID: other), after: 0, limit: 10).items.isEmpty)
            let later = Self.start.addingTimeInterval(2)
            #expect(try await database.presenceEvents(matching: PresenceEventFilter(since: later), after: 0, limit: 10).items.map(\.id) == [3, 4])
            #expect(try await database.presenceEvents(matching: PresenceEventFilter(until: later), after: 0, limit: 10).items.map(\.id) == [1, 2])

            // Away: not while a newer position has been read, then once.
            #expect(try await database.presenceStates()[.scanner(.default)]?.lastPositionID == second)
            #expect(try await database.updatePresence(of: .scanner(.default), ifLastPosition: first) { Self.rules.away($0) }.isEmpty)
            let away = try await database.updatePresence(of: .scanner(.default), ifLastPosition: second) { Self.rules.away($0) }
            #expect(away.last?.kind == .away && away.first?.id == 5)
            #expect(away.last?.time == later.addingTimeInterval(90))
            #expect(try await database.presenceStates()[.scanner(.default)]?.away == true)
            #expect(try await database.endOfPresenceEventFeed() == away.last?.id)
            #expect(try await database.updatePresence(of: .scanner(.default), ifLastPosition: second) { Self.rules.away($0) }.isEmpty)
        }
    }

    /// A tag's positions follow the same rules from their own cursor: its events carry the tag
    /// and no scanner, are queued only for webhooks that follow tags, and go with the tag.
    @Test(arguments: StoreBackend.allCases)
    func tagPositionsBecomeTheTagsEventsForWebhooksThatFollowTags(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let world = try await PresenceStoreWorld.make(database)
            let tag = try await database.createTag(NewTag(name: "Badge", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_11_22))))
            let scanners = try await database.createWebhook(NewWebhook(url: "http://127.0.0.1:9/s", subjects: [.scanners]), secret: "s1", at: Self.start)
            let tags = try await database.createWebhook(NewWebhook(url: "http://127.0.0.1:9/t", subjects: [.tags]), secret: "s2", at: Self.start)
            #expect(scanners.subjects == [.scanners] && tags.subjects == [.tags])
            await #expect(throws: StoreError.self) {
                try await database.createWebhook(NewWebhook(url: "http://127.0.0.1:9/n", subjects: []), secret: "s3", at: Self.start)
            }

            let hall = try await world.tagPosition(of: tag.id, in: world.hall, at: 0)
            let office = try await world.tagPosition(of: tag.id, in: world.office, at: 2)
            let derivation = try await database.derivePresence(of: .tags, limit: 500) { Self.rules.forTags.step($0, $1) }
            #expect(derivation.positionsRead == 2 && derivation.cursor == office.id)
            #expect(derivation.events.map(\.kind) == [.entered, .entered, .left, .entered])
            #expect(derivation.events.map(\.roomID) == [nil, world.hall.id, world.hall.id, world.office.id])
            #expect(derivation.events.map(\.positionID) == [hall.id, hall.id, office.id, office.id])
            #expect(derivation.events.allSatisfy { $0.tagID == tag.id && $0.scannerID == nil })
            #expect(derivation.heard[.tag(tag.id)]?.settled == PresenceSpot(floor: world.floor.id, roomID: world.office.id))
            #expect(try await Self.derive(database).positionsRead == 0, "scanners' cursor apart")
            #expect(try await database.derivePresence(of: .tags, limit: 500) { Self.rules.forTags.step($0, $1) }.positionsRead == 0)

            #expect(try await database.presenceEvents(matching: PresenceEventFilter(tagID: tag.id), after: 0, limit: 10).items == derivation.events)
            #expect(try await database.presenceEvents(matching: PresenceEventFilter(scannerID: .default), after: 0, limit: 10).items.isEmpty)
            #expect(try await database.webhooks().map(\.deliveries.pending) == [0, 4])
            let delivered = try await database.webhookDeliveries(of: tags.id, state: nil, after: 0, limit: 10).items
            #expect(delivered.allSatisfy { $0.tagID == tag.id && $0.scannerID == nil })

            #expect(try await database.presenceStates()[.tag(tag.id)]?.lastPositionID == office.id)
            let away = try await database.updatePresence(of: .tag(tag.id), ifLastPosition: office.id) { Self.rules.forTags.away($0) }
            #expect(away.map(\.kind) == [.left, .left, .away] && away.allSatisfy { $0.tagID == tag.id })
            #expect(away.last?.time == Self.start.addingTimeInterval(2 + 30))

            try await database.deleteTag(tag.id)
            #expect(try await database.presenceEvents(matching: PresenceEventFilter(), after: 0, limit: 10).items.isEmpty)
            #expect(try await database.presenceStates().isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func webhooksGetTheirEventsQueuedAndRecordEachAttempt(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let world = try await PresenceStoreWorld.make(database)
            let none = WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 0)
            let entered = try await database.createWebhook(NewWebhook(url: "http://127.0.0.1:9/entered", events: [.entered]), secret: "s1", at: Self.start)
            #expect(entered == Webhook(id: entered.id, url: "http://127.0.0.1:9/entered", events: [.entered], created: Self.start, deliveries: none))
            let every = try await database.createWebhook(NewWebhook(url: "http://127.0.0.1:9/every"), secret: "s2", at: Self.start)
            #expect(try await database.webhookIDs() == [entered.id, every.id])
            #expect(try await database.webhookTarget(entered.id) == WebhookTarget(id: entered.id, url: "http://127.0.0.1:9/entered", secret: "s1"))
            await #expect(throws: StoreError.self) { try await database.createWebhook(NewWebhook(url: "not a url"), secret: "s", at: Self.start) }

            _ = try await world.position(in: world.hall, at: 0)
            _ = try await world.position(in: world.office, at: 2)
            #expect(try await Self.derive(database).events.count == 4)
            #expect(try await database.webhooks().map(\.deliveries) == [
                WebhookDeliveryCounts(pending: 3, delivered: 0, dead: 0), WebhookDeliveryCounts(pending: 4, delivered: 0, dead: 0),
            ])

            let pending = try await database.pendingDeliveries(of: entered.id, limit: 10)
            #expect(pending.map(\.event.id) == [1, 2, 4] && pending.allSatisfy { $0.attempts == 0 && $0.event.kind == .entered })
            let later = Self.start.addingTimeInterval(60)
            try await database.recordDeliveryAttempts([
                DeliveryAttempt(deliveryID: pending[0].id, outcome: .delivered(status: 204), time: later),
                DeliveryAttempt(deliveryID: pending[1].id, outcome: .failed(status: 500, reason: "boom", dead: false), time: later),
                DeliveryAttempt(deliveryID: pending[2].id, outcome: .failed(status: nil, reason: "refused", dead: true), time: later),
            ])
            let deliveries = try await database.webhookDeliveries(of: entered.id, state: nil, after: 0, limit: 10).items
            #expect(deliveries.map(\.state) == [.delivered, .pending, .dead] && deliveries.allSatisfy { $0.attempts == 1 })
            #expect(deliveries.map(\.lastStatus) == [204, 500, nil] && deliveries.map(\.lastError) == [nil, "boom", "refused"])
            #expect(deliveries.allSatisfy { $0.lastAttempt == later && $0.scannerID == .default && $0.webhookID == entered.id })
            #expect(try await database.webhookDeliveries(of: entered.id, state: .pending, after: 0, limit: 10).items == [deliveries[1]])
            #expect(try await database.webhookDeliveries(of: entered.id, state: nil, after: deliveries[0].id, limit: 1).items == [deliveries[1]])
            #expect(try await database.recentWebhookFailures(limit: 5) == [deliveries[2], deliveries[1]])
            #expect(try await database.pendingDeliveries(of: entered.id, limit: 10).map(\.id) == [pending[1].id])
            #expect(try await database.webhooks().first?.deliveries == WebhookDeliveryCounts(pending: 1, delivered: 1, dead: 1))

            try await database.deleteWebhook(entered.id)
            #expect(try await database.webhookTarget(entered.id) == nil)
            #expect(try await database.webhooks().map(\.id) == [every.id])
            await #expect(throws: StoreError.notFound("no webhook \(entered.id)")) { try await database.deleteWebhook(entered.id) }
            await #expect(throws: StoreError.notFound("no webhook \(entered.id)")) {
                try await database.webhookDeliveries(of: entered.id, state: nil, after: 0, limit: 10)
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theMQTTOutboxKeepsItsOrderCursorDiscoveredScannersAndContacts(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let messages = [
                MQTTOutboxEntry(topic: "floorscan/a", payload: Array("on".utf8), qos: 1, retain: true),
                MQTTOutboxEntry(topic: "floorscan/b", payload: [], qos: 0, retain: false),
            ]
            let stored = try await database.enqueueMQTT(messages, at: Self.start)
            #expect(stored.map(\.id) == [1, 2] && stored.map(\.payload) == messages.map(\.payload))
            #expect(try await database.mqttOutbox(after: 0, limit: 10) == stored)
            #expect(try await database.mqttOutbox(after: 1, limit: 10) == [stored[1]])
            #expect(try await database.mqttOutboxDepth() == 2)
            await #expect(throws: StoreError.self) {
                try await database.enqueueMQTT([MQTTOutboxEntry(topic: "", payload: [], qos: 0, retain: false)], at: Self.start)
            }

            #expect(try await database.mqttPresenceCursor(startingAt: 7) == 7)
            #expect(try await database.mqttPresenceCursor(startingAt: 9) == 7)
            let third = try await database.enqueueMQTT([MQTTOutboxEntry(topic: "floorscan/c", payload: [1], qos: 1, retain: false)], at: Self.start, presenceCursor: 8)
            #expect(third.map(\.id) == [3])
            #expect(try await database.mqttPresenceCursor(startingAt: 0) == 8)
            try await database.deleteMQTTOutbox(through: 2)
            #expect(try await database.mqttOutbox(after: 0, limit: 10) == third)

            try await database.setMQTTDiscovered("default", true)
            try await database.setMQTTDiscovered("default", true)
            try await database.setMQTTDiscovered("hall", true)
            try await database.setMQTTDiscovered("hall", false)
            #expect(try await database.mqttDiscoveredScanners() == ["default"])

            let before = try await database.lastBatchContacts(after: 0)
            #expect(before.contacts.isEmpty && before.lastBatchID == 0)
            let on = try await database.updateSwitch(of: .default, with: SwitchPatch(scanning: true, storeData: true), at: Self.start).scanSwitch
            _ = try await database.ingest(Readings.batch([Readings.wifi()], revision: on.revision), at: Self.start)
            let (contacts, last) = try await database.lastBatchContacts(after: 0)
            #expect(contacts == [.default: Self.start] && last > 0)
            let after = try await database.lastBatchContacts(after: last)
            #expect(after.contacts.isEmpty && after.lastBatchID == last)
        }
    }

    /// The routes moved with them pass the PostgreSQL route gate and answer as on SQLite.
    @Test(arguments: StoreBackend.allCases)
    func theEventWebhookAndIntegrationRoutesAnswerAlike(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let world = try await PresenceStoreWorld.make(database)
            _ = try await world.position(in: world.hall, at: 0)
            let derived = try await Self.derive(database).events
            try await makeApp(database).test(.router) { client in
                let events = try await client.expect(.ok, get: "/v1/events?kind=entered", as: Page<PresenceEvent>.self)
                #expect(events.items == derived && events.nextCursor == nil)
                #expect(try await client.get("/v1/events?kind=arrived").status == .unprocessableContent)
                let created = try await client.expect(
                    .created, .post, "/v1/webhooks", json: NewWebhook(url: "https://example.org/hook", events: [.away]), as: CreatedWebhook.self
                )
                #expect(try await client.expect(.ok, get: "/v1/webhooks", as: Page<Webhook>.self).items == [created.webhook])
                let deliveries = try await client.expect(.ok, get: "/v1/webhooks/\(created.webhook.id)/deliveries", as: Page<WebhookDelivery>.self)
                #expect(deliveries.items.isEmpty)
                let status = try await client.expect(.ok, get: "/v1/integrations/webhooks", as: WebhookIntegrationStatus.self)
                #expect(status == WebhookIntegrationStatus(webhooks: [created.webhook], recentFailures: []))
                #expect(try await client.get("/v1/integrations/mqtt").status == .ok)
                #expect(try await client.execute(uri: "/v1/webhooks/\(created.webhook.id)", method: .delete).status == .noContent)
                #expect(try await client.execute(uri: "/v1/webhooks/\(created.webhook.id)", method: .delete).status == .notFound)
                #expect(try await client.get("/v1/webhooks/\(created.webhook.id)/deliveries").status == .notFound)
            }
        }
    }

    static func derive(_ database: AppDatabase) async throws -> PresenceDerivation {
        try await database.derivePresence(limit: 500) { rules.step($0, $1) }
    }
}

/// A floor with a hall and an office, and positions of the default scanner stored straight into
/// the table (posting positions is not on PostgreSQL yet).
struct PresenceStoreWorld {
    let database: AppDatabase
    let floor: Floor
    let hall: Room
    let office: Room

    static func make(_ database: AppDatabase) async throws -> PresenceStoreWorld {
        let floor = try await database.createFloor(NewFloor(name: "Ground"))
        let hall = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
        let office = try await database.createRoom(NewRoom(floorID: floor.id, name: "Office"))
        return PresenceStoreWorld(database: database, floor: floor, hall: hall, office: office)
    }

    /// Stores a position of tag `tagID` in `room`, `seconds` after the suite's start.
    func tagPosition(of tagID: Int64, in room: Room, at seconds: Double) async throws -> TagPosition {
        try await database.storeTagPosition(TagPosition(
            id: 0, tagID: tagID, time: PostgresPresenceStoreTests.start.addingTimeInterval(seconds), floorID: floor.id, x: 1, y: 1,
            roomID: room.id, accuracyMetres: 1, method: "fused", scannersHeard: 3
        ))
    }

    /// Stores a position of `scanner` in `room`, `seconds` after the suite's start; returns its ID.
    func position(in room: Room, at seconds: Double, scanner: ScannerID = .default) async throws -> Int64 {
        let time = PostgresPresenceStoreTests.start.addingTimeInterval(seconds).milliseconds
        let floorID = floor.id
        return try await database.writeStatements { sql in
            try #require(try sql.row("""
                INSERT INTO position (scanner_id, time_ms, building, floor_id, x, y, room_id, accuracy_metres, method)
                VALUES (?, ?, 'main', ?, 1, 1, ?, 1.5, 'wifi-knn') RETURNING id
                """, [.text(scanner.rawValue), .integer(time), .integer(floorID), .integer(room.id)])).int64("id")
        }
    }
}
