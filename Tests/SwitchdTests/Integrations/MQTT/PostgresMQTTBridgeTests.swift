import Foundation
import Harness
import Logging
import ScanContract
import ServiceLifecycle
import Testing
@testable import switchd
@testable import SwitchdStore

/// The MQTT bridge with two switchd instances (as `buildApplication` wires them) on one real
/// PostgreSQL server and one real broker (Debian's mosquitto): only the instance leading the
/// `mqtt` election holds a broker session; what is stored through the other (a scanner, its
/// positions and the presence events they make, its deletion's removal from the outbox) is
/// published by the leader; a switch
/// command the leader receives reaches a long-poll the other holds; when the leader stops, the
/// other takes over and publishes the retained state again; and the outbox's wake-up crosses
/// instances; a command the old leader took is refused when replayed to the new one. Every step
/// waits on an election's report, a broker message or an HTTP answer, never on time.
@Suite("MQTT bridge across instances", postgresInstalled, .postgresServer, .timeLimit(.minutes(3)))
struct PostgresMQTTBridgeTests {
    @Test func oneInstancePublishesWhatEitherStoresAndTheOtherTakesOver() async throws {
        let folder = try TemporaryFolder("mqtt-postgres")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["floorscan/#", "homeassistant/#"], folder: folder)
        let (databaseA, databaseB) = try await twoPostgresInstances(maxConnections: 4)
        let adminToken = try await issueToken(databaseA, .admin, name: "mqtt bridge tests")
        let wall = SetWallClock(Date())

        let a = try await BridgeInstance.started(database: databaseA, broker: broker, adminToken: adminToken, wallClock: wall.wallClock)
        #expect(await a.nextMQTTStanding() == .leading)
        await a.status.wait { $0.connected }
        let b = try await BridgeInstance.started(database: databaseB, broker: broker, adminToken: adminToken, wallClock: wall.wallClock)
        #expect(await b.nextMQTTStanding() == .following)

        // A scanner registered and placed through B: A announces it to Home Assistant and
        // publishes its position and room, and relays the presence events derived from its
        // positions (10 s apart by their own times: the dwell passes).
        let scanner = "pi-b"
        let place = try await b.switchd.scannerInRoom(scanner, room: "Lab")
        _ = try await watcher.waitFor("homeassistant/device_tracker/floorscan_pi-b/location/config", payload: .nonEmpty)
        let start = Date()
        for step in 0..<3 {
            try await b.switchd.postPosition(scanner, in: place, x: 4, time: start.addingTimeInterval(Double(step) * 10))
        }
        let position = try await watcher.waitFor("floorscan/scanners/pi-b/position", payload: .nonEmpty)
        #expect(try position.decoded(PositionMessage.self, with: JSONCoding.decoder()).x == 4)
        _ = try await watcher.waitFor("floorscan/scanners/pi-b/room", payload: .equal("Lab"))
        let entered = try await watcher.waitFor(count: 2, "floorscan/scanners/pi-b/events", payload: .containing(#""kind":"entered""#))
        let events = try entered.map { try $0.decoded(PresenceEvent.self, with: JSONCoding.decoder()) }
        #expect(Set(events.compactMap(\.place)) == [.room, .floor])

        // Deleted through B: its removal, stored in B's delete, wakes A, which clears it.
        let deleted = try await b.switchd.client.send("DELETE", "/v1/scanners/\(scanner)")
        #expect(deleted.status == 204, "\(deleted.text)")
        _ = try await watcher.waitFor("homeassistant/device_tracker/floorscan_pi-b/location/config", payload: .empty)
        _ = try await watcher.waitFor("floorscan/scanners/pi-b/position", payload: .empty)

        // A command on the broker, applied by A, reaches the long-poll B holds.
        let before = try await b.switchd.client.scanSwitch()
        async let polled = b.switchd.client.call(
            "GET", "/v1/scanners/default/switch?revision=\(before.revision)&wait=50", as: ScanSwitch.self
        )
        // Stamped after A began taking commands and the skew allowed.
        wall.set(wall.now.addingTimeInterval(30))
        let command = try MQTTCommandTests.signed(
            #"{"switch": {"scanning": true}, "requestID": "across"}"#, at: Int64(wall.now.timeIntervalSince1970)
        )
        try await MQTTSwitchd.publish(command, on: "floorscan/scanners/default/switch/set", port: broker.port)
        let result = try await watcher.waitFor("floorscan/scanners/default/switch/result", payload: .containing("across"))
        #expect(result.payload.contains(#""accepted":true"#))
        let flipped = try await polled
        #expect(flipped.revision == before.revision + 1 && flipped.scanning)

        // Exactly one broker session all along: B never connected, A never lost its session to
        // another client with its ID.
        #expect(await b.status.report().connections == 0)
        #expect(await a.status.report().connections == 1)
        let switchesSoFar = watcher.messages.filter { $0.topic == "floorscan/scanners/default/switch" }.count

        // A stops: B leads, connects and publishes the retained state again, then what is stored.
        try await a.stop()
        #expect(await b.nextMQTTStanding(skipping: .following) == .leading)
        await b.status.wait { $0.connected }
        let republished = try await watcher.waitFor(count: switchesSoFar + 1, "floorscan/scanners/default/switch")
        #expect(try republished.last?.decoded(ScanSwitch.self, with: JSONCoding.decoder()).revision == flipped.revision)
        // The command A took, sent again within its window: B has not seen its nonce, but it
        // began taking commands after the command's stamp, so it refuses it.
        try await MQTTSwitchd.publish(command, on: "floorscan/scanners/default/switch/set", port: broker.port)
        let replayed = try await watcher.waitFor("floorscan/scanners/default/switch/result", payload: .containing("replay_horizon"))
        #expect(replayed.payload.contains(#""accepted":false"#) && replayed.payload.contains("across"))
        #expect(try await b.switchd.client.scanSwitch().revision == flipped.revision)
        _ = try await watcher.waitFor(count: 2, "floorscan/status", payload: .equal("online"))
        let floor = try await b.switchd.client.createFloor("Upstairs")
        let hall = try await b.switchd.client.createRoom("Hall", floor: floor)
        try await b.switchd.postPosition("default", in: MQTTSwitchd.Place(floor: floor, room: hall), x: 7)
        _ = try await watcher.waitFor("floorscan/scanners/default/room", payload: .equal("Hall"))
        #expect(watcher.messages.last { $0.topic == "floorscan/status" }?.payload == "online", "A's going did not outlast B's coming")
        #expect(await b.status.report().connections == 1)

        try await b.stop()
        await watcher.stop()
        await broker.remove()
    }

    /// Every instance answers `GET /v1/integrations/mqtt` for the cluster: the follower with
    /// what the leader stored (``MQTTStatusRecorder``), naming it, and as not connected once that
    /// is older than a live leader's; a stored status it cannot read is left aside. An instance
    /// configured with another client ID or broker than the live leader's is refused at start
    /// (``MQTTClusterAgreement``), and accepted once no leader lives.
    @Test func everyInstanceAnswersForTheBridgeAndAnotherClientIDIsRefused() async throws {
        let broker = try await MosquittoBroker()
        let (databaseA, databaseB) = try await twoPostgresInstances(maxConnections: 4)
        let adminToken = try await issueToken(databaseA, .admin, name: "mqtt bridge status tests")
        let a = try await BridgeInstance.started(database: databaseA, broker: broker, adminToken: adminToken)
        #expect(await a.nextMQTTStanding() == .leading)
        await a.status.wait { $0.connected }
        let wallB = SetWallClock(Date())
        let b = try await BridgeInstance.started(database: databaseB, broker: broker, adminToken: adminToken, wallClock: wallB.wallClock)
        #expect(await b.nextMQTTStanding() == .following)

        // B never connected; it answers with A's stored status once A has stored it connected
        // and publishing (the retained switch goes out just after the connection).
        await a.status.wait { $0.connected && ($0.published["switch"] ?? 0) >= 1 }
        let covering = await a.status.changes.value
        await a.status.stored.wait(untilAbove: covering - 1)
        let answer = try await Self.mqttAnswer(b)
        #expect(answer.connected)
        #expect(await b.status.report().connections == 0)
        #expect(answer.enabled && answer.connections == 1 && answer.broker == "mqtt://127.0.0.1:\(broker.port)")
        #expect(answer.reportedBy == MQTTStatusRecorder.thisInstance && answer.reportedAt != nil)
        let fromLeader = try await Self.mqttAnswer(a)
        #expect(fromLeader.connected && fromLeader.reportedBy == nil, "the leader answers from memory")

        // Started now with another client ID or broker: refused, naming the option and the leader's.
        let ours = a.switchd.settings
        try await MQTTClusterAgreement.check(ours, database: databaseB, now: Date())
        var otherID = ours
        otherID.clientID = "floorscan-elsewhere"
        await #expect(throws: MQTTClusterAgreement.Disagreement.self) {
            try await MQTTClusterAgreement.check(otherID, database: databaseB, now: Date())
        }
        do {
            try await MQTTClusterAgreement.check(otherID, database: databaseB, now: Date())
        } catch {
            #expect("\(error)".contains("--mqtt-client-id floorscan-elsewhere") && "\(error)".contains(ours.clientID))
        }
        var otherBroker = ours
        otherBroker.broker = try MQTTBroker(url: "mqtt://127.0.0.2:\(broker.port)")
        do {
            try await MQTTClusterAgreement.check(otherBroker, database: databaseB, now: Date())
            Issue.record("another broker was accepted")
        } catch {
            #expect("\(error)".contains("--mqtt-broker mqtt://127.0.0.2"))
        }
        // Once the stored status is older than a live leader's, nothing is compared, and B says
        // the bridge is not connected.
        let later = Date().addingTimeInterval(MQTTStatusRecorder.staleAfter + 60)
        try await MQTTClusterAgreement.check(otherID, database: databaseB, now: later)
        wallB.set(later)
        let stale = try await Self.mqttAnswer(b)
        #expect(!stale.connected && stale.connectedSince == nil && stale.reportedBy != nil)
        wallB.set(Date())

        // A stored status that is not a report: B answers with its own, and keeps serving.
        try await databaseB.saveMQTTBridgeStatus(MQTTBridgeStatus(
            instance: "elsewhere", broker: ours.broker.description, clientID: ours.clientID, report: "{not a report", updated: Date()
        ))
        let own = try await Self.mqttAnswer(b)
        #expect(own.reportedBy == nil && own.connections == 0)

        try await a.stop()
        try await b.stop()
        await broker.remove()
    }

    static func mqttAnswer(_ instance: BridgeInstance) async throws -> MQTTStatus.Report {
        try await instance.switchd.client.call("GET", "/v1/integrations/mqtt", as: MQTTStatus.Report.self)
    }

    /// The server ends the session holding the `mqtt` lock, as when the leader's machine or
    /// network dies: the leader stops publishing, and whichever instance leads next connects
    /// and publishes the retained state again.
    @Test func whenTheLeadersSessionEndsTheNextLeaderPublishesEverythingAgain() async throws {
        let folder = try TemporaryFolder("mqtt-postgres-session")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["floorscan/#"], folder: folder)
        let (databaseA, databaseB) = try await twoPostgresInstances(maxConnections: 4)
        let adminToken = try await issueToken(databaseA, .admin, name: "mqtt bridge tests")
        let a = try await BridgeInstance.started(database: databaseA, broker: broker, adminToken: adminToken)
        #expect(await a.nextMQTTStanding() == .leading)
        let b = try await BridgeInstance.started(database: databaseB, broker: broker, adminToken: adminToken)
        #expect(await b.nextMQTTStanding() == .following)
        _ = try await watcher.waitFor("floorscan/scanners/default/switch", payload: .nonEmpty)

        let ended = try await databaseB.writeStatements { sql in
            try sql.rows("""
                SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
                WHERE locktype = 'advisory' AND granted AND objsubid = 1
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                  AND classid = ((hashtextextended('leader mqtt', 0) >> 32) & 4294967295)::oid
                  AND objid = (hashtextextended('leader mqtt', 0) & 4294967295)::oid
                """, []).filter { try $0.bool("ended") }.count
        }
        #expect(ended == 1)
        #expect(await a.nextMQTTStanding(skipping: .leading) == .lost)
        let republished = try await watcher.waitFor(count: 2, "floorscan/scanners/default/switch", payload: .nonEmpty)
        #expect(republished.allSatisfy { $0.payload == republished[0].payload })
        _ = try await watcher.waitFor(count: 2, "floorscan/status", payload: .equal("online"))
        let sessions = await a.status.report().connections + b.status.report().connections
        #expect(sessions == 2, "one session before, one after: the next leader's")

        try await a.stop()
        try await b.stop()
        await watcher.stop()
        await broker.remove()
    }

    /// A message put in the outbox through one instance raises the outbox watermark the other's
    /// publisher waits on (``ClusterFanOutService``): first through the resync after listening,
    /// then, committed while it listens, through the notification alone.
    @Test func theOutboxPutThroughOneInstanceWakesTheOthersPublisher() async throws {
        let (instanceA, instanceB) = try await twoPostgresInstances(maxConnections: 2)
        let outboxAdded = Watermark()
        let service = Task {
            try await ClusterFanOutService(
                database: instanceB, hub: SwitchHub(), feeds: Feeds(), logger: Logger(label: "test"), mqttOutboxAdded: outboxAdded
            ).run()
        }
        let message = MQTTOutboxEntry(topic: "floorscan/scanners/pi/events", payload: Array("{}".utf8), qos: 1, retain: false)
        let first = try #require(try await instanceA.enqueueMQTT([message], at: Date()).last?.id)
        await outboxAdded.wait(untilAbove: first - 1)
        let second = try #require(try await instanceA.enqueueMQTT([message, message], at: Date()).last?.id)
        await outboxAdded.wait(untilAbove: first)
        #expect(await outboxAdded.value == second)
        service.cancel()
        _ = await service.result
        try await instanceA.close()
        try await instanceB.close()
    }
}

/// One switchd on PostgreSQL publishing to `broker` (commands accepted), running until ``stop()``,
/// with what its `mqtt` election reports.
struct BridgeInstance {
    let switchd: MQTTSwitchd
    let database: AppDatabase
    let serviceGroup: ServiceGroup
    let run: Task<Void, any Error>
    let standings: AsyncStream<Leadership>

    var status: MQTTStatus { switchd.status }

    static func started(
        database: AppDatabase, broker: MosquittoBroker, adminToken: String, wallClock: WallClock = .system
    ) async throws -> BridgeInstance {
        var logger = Logger(label: "switchd-mqtt-postgres-tests")
        logger.logLevel = .critical
        var mqtt = MQTTSettings(broker: try MQTTBroker(url: "mqtt://127.0.0.1:\(broker.port)"))
        mqtt.acceptsCommands = true
        mqtt.commandSecret = try MQTTCommandSecret(MQTTCommandTests.secretText)
        mqtt.minReconnectDelay = .milliseconds(50)
        mqtt.maxReconnectDelay = .milliseconds(400)
        let metrics = SwitchdMetrics()
        let status = MQTTStatus(broker: mqtt.broker, factory: metrics.factory)
        let (standings, report) = AsyncStream.makeStream(of: Leadership.self)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(SwitchdDependencies(
            settings: Settings(host: "127.0.0.1", port: 0, mqtt: mqtt), database: database, logger: logger, metrics: metrics,
            wallClock: wallClock, mqttStatus: status, onServerRunning: { port in portContinuation.yield(port) }, onLeadership: { role, standing in
                if role == "mqtt" { report.yield(standing) }
            }
        ))
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let run = Task { try await serviceGroup.run() }
        var portIterator = ports.makeAsyncIterator()
        guard let port = await portIterator.next() else { throw HarnessError("switchd did not start") }
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: adminToken)
        return BridgeInstance(
            switchd: MQTTSwitchd(client: client, adminToken: adminToken, database: database, status: status, settings: mqtt),
            database: database, serviceGroup: serviceGroup, run: run, standings: standings
        )
    }

    /// The next standing in the `mqtt` election, passing over any `repeated` (a follower reports
    /// `following` after each try).
    func nextMQTTStanding(skipping repeated: Leadership? = nil) async -> Leadership? {
        for await standing in standings where standing != repeated {
            return standing
        }
        return nil
    }

    /// Shuts the instance down gracefully and closes its store: its elections' locks go with it.
    func stop() async throws {
        await serviceGroup.triggerGracefulShutdown()
        try await run.value
        try await database.close()
    }
}
