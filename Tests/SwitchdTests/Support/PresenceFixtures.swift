import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
@testable import switchd
@testable import SwitchdStore

/// One position of a stream in `Fixtures/presence/` (made by `make-streams.py` there).
struct RecordedPosition: Decodable {
    /// Seconds from the stream's start.
    var t: Double
    /// `hall`, `office`, or nil between rooms.
    var room: String?
    var x: Double
    var y: Double

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/presence")

    /// The stream `name`.jsonl, in order.
    static func stream(_ name: String) throws -> [RecordedPosition] {
        let text = try String(contentsOf: folder.appendingPathComponent("\(name).jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(RecordedPosition.self, from: Data($0.utf8)) }
    }
}

/// The ground floor of the recorded streams, made through the API: a hall and an office beside it.
struct PresenceWorld {
    var floor: Floor
    var hall: Room
    var office: Room

    static func make(_ client: some TestClientProtocol) async throws -> PresenceWorld {
        let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground", level: 0), as: Floor.self)
        let hall = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: floor.id, name: "Hall"), as: Room.self)
        let office = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: floor.id, name: "Office"), as: Room.self)
        return PresenceWorld(floor: floor, hall: hall, office: office)
    }

    func roomID(_ name: String?) -> Int64? {
        switch name {
        case "hall": hall.id
        case "office": office.id
        default: nil
        }
    }

    /// The recorded position as `scanner` posts it.
    func new(_ recorded: RecordedPosition, scanner: ScannerID = .default, start: Date = Readings.start) -> NewPosition {
        NewPosition(
            scannerID: scanner, time: start.addingTimeInterval(recorded.t), building: floor.building, floor: floor.id,
            x: recorded.x, y: recorded.y, roomID: roomID(recorded.room), nearestLocationID: nil, accuracyMetres: 1.5, method: "wifi-knn"
        )
    }

    /// Posts every position of `stream`; returns them as stored.
    func post(_ stream: [RecordedPosition], with client: some TestClientProtocol, scanner: ScannerID = .default) async throws -> [Position] {
        var stored: [Position] = []
        for recorded in stream {
            stored.append(try await client.expect(.created, .post, "/v1/positions", json: new(recorded, scanner: scanner), as: Position.self))
        }
        return stored
    }
}

extension PresenceWorld {
    /// The recorded position as switchd stores it for tag `tagID`'s window ending at that time.
    func tagPosition(_ recorded: RecordedPosition, tag tagID: Int64, start: Date = Readings.start) -> TagPosition {
        TagPosition(
            id: 0, tagID: tagID, time: start.addingTimeInterval(recorded.t), floorID: floor.id, x: recorded.x, y: recorded.y,
            roomID: roomID(recorded.room), accuracyMetres: 1.2, method: "fused", scannersHeard: 3
        )
    }

    /// Stores every position of `stream` as the window closer does (stored, then announced on
    /// ``Feeds/tagPositions``); returns them as stored.
    func store(_ stream: [RecordedPosition], tag tagID: Int64, in database: AppDatabase, feeds: Feeds) async throws -> [TagPosition] {
        var stored: [TagPosition] = []
        for recorded in stream {
            stored.append(try await database.storeTagPosition(tagPosition(recorded, tag: tagID)))
            await feeds.tagPositions.publish(upTo: stored[stored.count - 1].id)
        }
        return stored
    }
}

/// A switchd wired as `main` wires it with the given presence and retry settings, feeds and
/// clock, admin by default (see ``makeApp(_:maxBodyBytes:maxPlanBytes:adminFiles:clock:metrics:)``).
func makeIntegrationApp(
    _ database: AppDatabase, presence: PresenceRules = PresenceRules(dwell: .seconds(5), awayAfter: .seconds(120)),
    retry: WebhookRetryPolicy = WebhookRetryPolicy(), destinations: WebhookDestinationPolicy = .testReceivers, feeds: Feeds,
    clock: any Clock<Duration>
) -> AdminByDefault<some ApplicationProtocol> {
    var logger = Logger(label: "switchd-tests")
    logger.logLevel = .critical
    var settings = Settings(host: "127.0.0.1", port: 0)
    settings.presence = presence
    settings.webhookRetry = retry
    settings.webhookDestinations = destinations
    let app = buildApplication(SwitchdDependencies(settings: settings, database: database, logger: logger, feeds: feeds, clock: clock))
    return AdminByDefault(base: app, database: database)
}

extension Feeds {
    /// Returns once the presence derivation has read the position `id` (and every one before it).
    func presenceHasRead(_ id: Int64) async {
        await presenceRead.waitForRows(after: id - 1)
    }

    /// Returns once the presence derivation has read the tag position `id` (and every one before it).
    func presenceHasRead(tagPosition id: Int64) async {
        await tagPresenceRead.waitForRows(after: id - 1)
    }
}
