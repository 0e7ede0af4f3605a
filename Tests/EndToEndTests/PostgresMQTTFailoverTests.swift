import Foundation
import Harness
import ScanContract
import Testing

/// Two real `switchd` processes with `--mqtt-broker` on one real PostgreSQL server and one real
/// mosquitto (docs/scale-out.md, docs/mqtt.md): the first leads the MQTT bridge and publishes a
/// position posted to the second; SIGKILLed, its will says `offline`, the second takes the lead,
/// says `online`, publishes the retained state again and then what is posted to it; it then
/// stops cleanly on SIGTERM.
@Suite(
    "End to end: the MQTT bridge fails over between two switchd on one PostgreSQL",
    .enabled(if: PostgresServer.isInstalled, Comment(rawValue: PostgresServer.missing ?? "")), .serialized
)
struct PostgresMQTTFailoverTests {
    @Test func aKilledLeadersBrokerSessionIsTakenOverByTheOther() async throws {
        let server = try await PostgresServer()
        let folder = try TemporaryFolder("mqtt-failover")
        let broker = try await MosquittoBroker()
        do {
            try await server.createDatabase("fleet")
            try await Self.run(server: server, broker: broker, folder: folder)
        } catch {
            await broker.remove()
            folder.remove()
            await server.remove()
            throw error
        }
        await broker.remove()
        folder.remove()
        await server.remove()
    }

    private static func run(server: PostgresServer, broker: MosquittoBroker, folder: TemporaryFolder) async throws {
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["floorscan/#"], folder: folder)
        let tokenFile = try writeTokenFile("fst_\(UUID().uuidString)", in: folder, label: "admin")
        let arguments = ["--database", server.url(database: "fleet"), "--mqtt-broker", "mqtt://127.0.0.1:\(broker.port)"]
        let a = try await SwitchdInstance.start(in: folder, arguments: arguments, label: "switchd-a", stateName: "a", adminTokenFile: tokenFile)
        defer { a.process.signal(SIGKILL) }
        _ = try await watcher.waitFor("floorscan/status", payload: .equal("online"))
        let b = try await SwitchdInstance.start(in: folder, arguments: arguments, label: "switchd-b", stateName: "b", adminTokenFile: tokenFile)
        defer { b.process.signal(SIGKILL) }

        // Posted to B, published by A.
        let floor = try await b.adminClient().call("POST", "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
        let hall = try await b.adminClient().call("POST", "/v1/rooms", json: NewRoom(floorID: floor.id, name: "Hall"), as: Room.self)
        let kitchen = try await b.adminClient().call("POST", "/v1/rooms", json: NewRoom(floorID: floor.id, name: "Kitchen"), as: Room.self)
        try await postPosition(in: hall, on: floor, to: b)
        _ = try await watcher.waitFor("floorscan/scanners/default/room", payload: .equal("Hall"))
        let switchesSoFar = watcher.messages.filter { $0.topic == "floorscan/scanners/default/switch" }.count

        await a.process.kill()
        _ = try await watcher.waitFor("floorscan/status", payload: .equal("offline"))
        _ = try await watcher.waitFor(count: 2, "floorscan/status", payload: .equal("online"))
        _ = try await b.process.waitForLogLine { $0.contains("Connected to the MQTT broker") }
        _ = try await watcher.waitFor(count: switchesSoFar + 1, "floorscan/scanners/default/switch", payload: .nonEmpty)
        try await postPosition(in: kitchen, on: floor, to: b)
        _ = try await watcher.waitFor("floorscan/scanners/default/room", payload: .equal("Kitchen"))
        #expect(watcher.messages.last { $0.topic == "floorscan/status" }?.payload == "online")

        #expect(await b.process.terminate() == 0)
        await watcher.stop()
    }

    private static func postPosition(in room: Room, on floor: Floor, to instance: SwitchdInstance) async throws {
        let new = NewPosition(
            scannerID: .default, time: Date(), building: floor.building, floor: floor.id, x: 1, y: 2, roomID: room.id,
            nearestLocationID: nil, accuracyMetres: 1.5, method: "wifi-knn"
        )
        _ = try await instance.adminClient().call("POST", "/v1/positions", json: new, as: Position.self)
    }
}
