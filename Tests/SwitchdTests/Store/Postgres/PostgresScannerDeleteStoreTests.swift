import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Deleting a scanner with the same assertions on SQLite and on a real PostgreSQL server
/// (docs/scale-out.md): its tokens are revoked, its switch, positions and walk under way (with
/// that walk's readings) go, its other readings stay, both feeds keep their ends, a refused
/// delete changes nothing, a scanner registered again under the ID numbers its revisions on, and
/// its removal from the MQTT broker is stored in the outbox with the delete.
@Suite("Scanner deletion on both databases", postgresInstalled, .postgresServer)
struct PostgresScannerDeleteStoreTests {
    static let retired = try! ScannerID("pi-retired")
    static let now = Readings.start.addingTimeInterval(60)

    @Test(arguments: StoreBackend.allCases)
    func aDeletedScannerTakesItsPositionsAndWalkAndKeepsItsReadingsAndTheFeedEnds(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (_, from, to) = try await PostgresWalkStoreTests.corridor(in: database)
            let floor = try await database.floor(try await database.room(from.roomID).floorID)
            _ = try await database.createScanner(NewScanner(id: Self.retired), at: Readings.start)
            let token = try await database.issueToken(NewToken(role: .scanner, scannerID: Self.retired), token: .generate(), at: Readings.start)
            let kept = try await database.issueToken(NewToken(role: .reader), token: .generate(), at: Readings.start)
            let survey = try await database.updateSwitch(
                of: Self.retired, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(to.id), storeData: true), at: Readings.start
            ).scanSwitch
            _ = try await database.ingest(Readings.batch([Readings.wifi(), Readings.ble()], revision: survey.revision, scanner: Self.retired), at: Readings.start)
            let other = try await database.createPosition(Positions.new(floor: floor, at: 1))
            let position = try await database.createPosition(Positions.new(scanner: Self.retired, floor: floor, at: 2))
            // A walk under way, whose readings are the newest.
            let walk = try #require(try await database.startWalk(
                NewWalk(scannerID: Self.retired, fromLocationID: from.id, toLocationID: to.id), at: Readings.start
            ).walk)
            let walked = try await database.ingest(
                Readings.batch([Readings.wifi(scan: 1, at: 3)], revision: walk.switchRevision, scanner: Self.retired), at: Readings.start
            )
            let measurementEnd = try #require(walked.lastSequence)
            #expect(try await database.endOfMeasurementFeed() == measurementEnd)

            let deletion = try await database.deleteScanner(Self.retired, at: Self.now, mqtt: nil)
            #expect(deletion.lastRevision == walk.switchRevision && deletion.tokensRevoked == 1 && deletion.positionsDeleted == 1)
            #expect(deletion.mqttQueued.isEmpty)

            await #expect(throws: StoreError.notFound("no scanner pi-retired")) { try await database.scanner(Self.retired) }
            await #expect(throws: StoreError.notFound("no scanner pi-retired")) { try await database.currentSwitch(of: Self.retired) }
            let tokens = try await database.tokens()
            #expect(tokens.first { $0.id == token.id }?.revoked == Self.now)
            #expect(tokens.first { $0.id == kept.id }?.revoked == nil)
            let positions = try await database.positions(matching: PositionFilter(), after: 0, limit: 10)
            #expect(positions.items == [other] && positions.endOfFeed == position.id)
            #expect(try await database.endOfPositionFeed() == position.id)
            let readings = try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10)
            #expect(readings.items.count == 2 && readings.items.allSatisfy { $0.scannerID == Self.retired && $0.locationID == to.id })
            #expect(readings.endOfFeed == measurementEnd)
            #expect(try await database.walks(onFloor: nil).isEmpty)

            await #expect(throws: StoreError.notFound("no scanner pi-retired")) { try await database.deleteScanner(Self.retired, at: Self.now, mqtt: nil) }
            await #expect(throws: StoreError.notFound("no scanner nobody")) {
                try await database.deleteScanner(try ScannerID("nobody"), at: Self.now, mqtt: nil)
            }

            // Registered again: a new scanner, its revisions numbered on from the old one's.
            _ = try await database.createScanner(NewScanner(id: Self.retired), at: Self.now)
            let fresh = try await database.currentSwitch(of: Self.retired)
            #expect(fresh.revision == walk.switchRevision + 1 && !fresh.scanning)
        }
    }

    /// With a broker configured, the scanner's removal from it is stored in the deletion's own
    /// transaction on both databases: the outbox holds exactly what the deletion returns, the
    /// scanner is struck from the discovered list, and a refused deletion stores nothing.
    @Test(arguments: StoreBackend.allCases)
    func aDeletionStoresItsMQTTRemovalInItsOwnTransaction(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            _ = try await database.createScanner(NewScanner(id: Self.retired), at: Readings.start)
            try await database.setMQTTDiscovered(Self.retired.rawValue, true)
            try await database.setMQTTDiscovered("default", true)
            let removal = MQTTScannerRemoval(messages: [
                MQTTOutboxEntry(topic: "homeassistant/sensor/floorscan_pi-retired/x/config", payload: [], qos: 1, retain: true),
                MQTTOutboxEntry(topic: "floorscan/scanners/pi-retired/position", payload: [], qos: 1, retain: true),
            ], removesDiscovery: true)

            await #expect(throws: StoreError.notFound("no scanner nobody")) {
                try await database.deleteScanner(try ScannerID("nobody"), at: Self.now, mqtt: removal)
            }
            #expect(try await database.mqttOutboxDepth() == 0, "a refused deletion stores no removal")

            let deletion = try await database.deleteScanner(Self.retired, at: Self.now, mqtt: removal)
            #expect(deletion.mqttQueued.map(\.topic) == removal.messages.map(\.topic))
            #expect(try await database.mqttOutbox(after: 0, limit: 10) == deletion.mqttQueued)
            #expect(try await database.lastMQTTOutboxID() == deletion.mqttQueued.last?.id)
            #expect(try await database.mqttDiscoveredScanners() == ["default"])
        }
    }
}
