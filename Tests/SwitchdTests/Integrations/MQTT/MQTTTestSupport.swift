import Foundation
import Harness
import Logging
import ScanContract
import ServiceLifecycle
@testable import switchd
@testable import SwitchdStore

/// A switchd serving HTTP on loopback and publishing to a real broker, for one test's body.
struct MQTTSwitchd: Sendable {
    let client: APIClient
    let adminToken: String
    let database: AppDatabase
    let status: MQTTStatus
    let settings: MQTTSettings

    /// A room and the floor it is on.
    struct Place: Sendable {
        var floor: Floor
        var room: Room
    }

    /// Registers a scanner, and a floor with a room for it.
    func scannerInRoom(_ id: String, room name: String = "Lab") async throws -> Place {
        _ = try await client.call("POST", "/v1/scanners", json: NewScanner(id: try ScannerID(id), name: "Scanner \(id)"), as: ScanContract.Scanner.self)
        let floor = try await client.createFloor("Ground")
        return Place(floor: floor, room: try await client.createRoom(name, floor: floor))
    }

    /// Posts a position of `scanner` in `place`, computed at `time`.
    @discardableResult
    func postPosition(_ scanner: String, in place: Place, x: Double, time: Date = Date()) async throws -> Position {
        let new = NewPosition(
            scannerID: try ScannerID(scanner), time: time, building: place.floor.building, floor: place.floor.id, x: x, y: 2, roomID: place.room.id,
            nearestLocationID: nil, accuracyMetres: 1.5, method: "wifi-knn"
        )
        return try await client.call("POST", "/v1/positions", json: new, as: Position.self)
    }

    /// Publishes `text` on `topic` with Debian's mosquitto_pub, as any other client would.
    static func publish(_ text: String, on topic: String, port: Int) async throws {
        let result = try await runToEnd(
            at: URL(fileURLWithPath: "/usr/bin/mosquitto_pub"), ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", text]
        )
        guard result.status == 0 else { throw HarnessError("mosquitto_pub: \(result.standardError)") }
    }
}

/// Runs switchd (as `buildApplication` wires it) against `broker` for the length of `body`, then
/// shuts it down gracefully.
func withMQTTSwitchd(
    broker: MosquittoBroker, database: AppDatabase? = nil, clock: any Clock<Duration> = ContinuousClock(), wallClock: WallClock = .system,
    configure: (inout MQTTSettings) -> Void = { _ in }, _ body: (MQTTSwitchd) async throws -> Void
) async throws {
    var logger = Logger(label: "switchd-mqtt-tests")
    logger.logLevel = .critical
    let database = try database ?? AppDatabase.inMemory()
    var mqtt = MQTTSettings(broker: try MQTTBroker(url: "mqtt://127.0.0.1:\(broker.port)"))
    mqtt.clientID = "switchd-test-\(UUID().uuidString.prefix(8))"
    mqtt.minReconnectDelay = .milliseconds(50)
    mqtt.maxReconnectDelay = .milliseconds(400)
    configure(&mqtt)
    let metrics = SwitchdMetrics()
    let status = MQTTStatus(broker: mqtt.broker, factory: metrics.factory)
    let adminToken = try await issueToken(database, .admin, name: "mqtt tests")
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = buildApplication(SwitchdDependencies(
        settings: Settings(host: "127.0.0.1", port: 0, mqtt: mqtt), database: database, logger: logger, metrics: metrics, clock: clock,
        wallClock: wallClock, mqttTLS: try mqtt.makeTLSContext(), mqttStatus: status
    ) { port in
        portContinuation.yield(port)
    })
    let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await serviceGroup.run() }
        var portIterator = ports.makeAsyncIterator()
        guard let port = await portIterator.next() else { throw HarnessError("switchd did not start") }
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: adminToken)
        do {
            try await body(MQTTSwitchd(client: client, adminToken: adminToken, database: database, status: status, settings: mqtt))
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            throw error
        }
        await serviceGroup.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
}
