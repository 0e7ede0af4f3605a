import Foundation
import Harness
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Switch commands over MQTT: a command signed with the command secret, within the window and
/// with a new nonce, flips the switch by PATCH's rules; anything else (an HTTP token in the
/// command, a bad MAC, an old or future timestamp, a replay) is refused, says why and changes
/// nothing.
@Suite("MQTT commands", .serialized)
struct MQTTCommandTests {
    static let secretText = "9f3c1b7e2a6d4c8f0e5b3a1d7c9e2f4a6b8d0c2e4f6a8b0d"
    static let topic = "floorscan/scanners/default/switch/set"
    static let result = "floorscan/scanners/default/switch/result"
    /// switchd's time of day when it starts; it starts taking commands stamped after this plus
    /// the allowed skew.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    struct Answer: Decodable {
        var requestID: String?
        var accepted: Bool
        var `switch`: ScanSwitch?
        var error: APIErrorBody.Detail?
    }

    /// `json` signed for `topic` at `timestamp` with `secret`, as a client would send it.
    static func signed(
        _ json: String, topic: String = topic, at timestamp: Int64, nonce: String = UUID().uuidString, secret: String = secretText
    ) throws -> String {
        String(decoding: MQTTSignedCommand.payload(
            body: Array(json.utf8), topic: topic, timestamp: timestamp, nonce: nonce, secret: try MQTTCommandSecret(secret)
        ), as: UTF8.self)
    }

    @Test func aSignedCommandFlipsTheSwitchAnythingElseIsRefusedAndCounted() async throws {
        try await Self.withBroker("mqtt-commands", watching: [Self.result, "floorscan/status"]) { broker, watcher, _ in
            let wall = SetWallClock(Self.start)
            try await withMQTTSwitchd(broker: broker, wallClock: wall.wallClock, configure: {
                $0.acceptsCommands = true
                $0.commandSecret = try? MQTTCommandSecret(Self.secretText)
            }) { switchd in
                _ = try await watcher.waitFor("floorscan/status", payload: .equal("online"))
                await switchd.status.wait { $0.published["switch"] != nil }
                let now = Int64(Self.start.timeIntervalSince1970) + 30
                wall.set(Date(timeIntervalSince1970: TimeInterval(now)))
                let accepted = try Self.signed(#"{"switch": {"scanning": true}, "requestID": "signed"}"#, at: now)
                let commands = [
                    #"{"token": "\#(switchd.adminToken)", "switch": {"scanning": true}, "requestID": "old-form"}"#,
                    #"{"switch": {"scanning": true}, "requestID": "unsigned"}"#,
                    try Self.signed(#"{"switch": {"scanning": true}, "requestID": "other-secret"}"#, at: now, secret: String(repeating: "x", count: 40)),
                    try Self.signed(#"{"switch": {"scanning": true}, "requestID": "other-scanner"}"#, topic: "floorscan/scanners/pi-lab/switch/set", at: now),
                    // The body changed after signing.
                    try Self.signed(#"{"switch": {"scanning": false}, "requestID": "altered"}"#, at: now)
                        .replacingOccurrences(of: "false", with: "true"),
                    try Self.signed(#"{"switch": {"scanning": true}, "requestID": "old"}"#, at: now - 61),
                    try Self.signed(#"{"switch": {"scanning": true}, "requestID": "ahead"}"#, at: now + 11),
                    // Within the window, but from before switchd took commands.
                    try Self.signed(#"{"switch": {"scanning": true}, "requestID": "before-start"}"#, at: now - 25),
                    try Self.signed(#"{"switch": {"scanning": "yes"}, "requestID": "bad-patch"}"#, at: now),
                    try Self.signed(#"{"switch": {"scanning": true, "mode": "survey", "locationID": 999}, "requestID": "no-location"}"#, at: now),
                    accepted,
                    accepted,
                ]
                for command in commands {
                    try await MQTTSwitchd.publish(command, on: Self.topic, port: broker.port)
                }
                let answers = try await watcher.waitFor(count: commands.count, Self.result)
                let decoded = try answers.map { try $0.decoded(Answer.self, with: JSONCoding.decoder()) }
                #expect(decoded.map(\.requestID) == [
                    "old-form", "unsigned", "other-secret", "other-scanner", "altered", "old", "ahead", "before-start", "bad-patch", "no-location",
                    "signed", "signed",
                ])
                #expect(decoded.map(\.accepted) == [false, false, false, false, false, false, false, false, false, false, true, false])
                #expect(decoded.map { $0.error?.code } == [
                    "token_not_accepted", "unsigned", "bad_mac", "bad_mac", "bad_mac", "expired", "future", "replay_horizon", "invalid_command",
                    "invalid_field", nil, "replayed",
                ])
                #expect(decoded[0].error?.message.contains("revoke the token") == true, "\(decoded[0])")
                #expect(decoded[10].switch?.scanning == true && decoded[10].switch?.revision == 2)
                let scanSwitch = try await switchd.client.scanSwitch()
                #expect(scanSwitch.revision == 2 && scanSwitch.scanning, "only the signed command changed the switch")

                let samples = PrometheusSamples(try await switchd.client.send("GET", "/metrics").text)
                let refused = "switchd_mqtt_commands_refused_total"
                #expect(samples[#"\#(refused){reason="token_not_accepted"}"#] == 1)
                #expect(samples[#"\#(refused){reason="unsigned"}"#] == 1)
                #expect(samples[#"\#(refused){reason="bad_mac"}"#] == 3)
                #expect(samples[#"\#(refused){reason="expired"}"#] == 1)
                #expect(samples[#"\#(refused){reason="future"}"#] == 1)
                #expect(samples[#"\#(refused){reason="replay_horizon"}"#] == 1)
                #expect(samples[#"\#(refused){reason="replayed"}"#] == 1)
                #expect(samples["switchd_mqtt_commands_authenticated_total"] == 3)
            }
        }
    }

    /// The example of docs/mqtt.md, run as printed (but for the file, the broker and the
    /// scanner): openssl signs, mosquitto_pub sends, switchd applies. The command secret it signs
    /// with opens no HTTP route.
    @Test func theDocumentedShellExampleSendsACommandTheSecretIsNoHTTPToken() async throws {
        try await Self.withBroker("mqtt-command-example", watching: [Self.result, "floorscan/status"]) { broker, watcher, folder in
            let secretFile = folder.path("mqtt-command.secret")
            FileManager.default.createFile(atPath: secretFile, contents: Data((Self.secretText + "\n").utf8), attributes: [.posixPermissions: 0o600])
            let secret = try MQTTCommandSecret.read(secretFile)
            // The example stamps with `date +%s`: switchd starts a minute back and is then set to now.
            let wall = SetWallClock(Date().addingTimeInterval(-60))
            try await withMQTTSwitchd(broker: broker, wallClock: wall.wallClock, configure: {
                $0.acceptsCommands = true
                $0.commandSecret = secret
            }) { switchd in
                _ = try await watcher.waitFor("floorscan/status", payload: .equal("online"))
                wall.set(Date())
                let script = try Self.documentedExample(setting: [
                    "secret_file": secretFile, "broker": "127.0.0.1", "port": String(broker.port), "topic": Self.topic,
                ])
                let run = try await runToEnd(at: URL(fileURLWithPath: "/bin/sh"), ["-c", script])
                #expect(run.status == 0, "\(run.standardError)")
                let answer = try await watcher.waitFor(Self.result).decoded(Answer.self, with: JSONCoding.decoder())
                #expect(answer.accepted && answer.error == nil, "\(answer)")
                #expect(answer.requestID == "r1")
                let scanSwitch = try await switchd.client.scanSwitch()
                #expect(scanSwitch.scanning && scanSwitch.mode == .locate && scanSwitch.revision == 2)

                let asBearer = APIClient(baseURL: switchd.client.baseURL, token: Self.secretText)
                for (method, path) in [("GET", "/v1/scanners/default/switch"), ("GET", "/v1/integrations/mqtt")] {
                    let response = try await asBearer.send(method, path)
                    #expect(response.status == 401, "\(method) \(path) with the command secret: \(response.status)")
                }
                let patch = try await asBearer.send("PATCH", "/v1/scanners/default/switch", json: SwitchPatch(scanning: false))
                #expect(patch.status == 401)
                #expect(try await switchd.client.scanSwitch().revision == 2)
            }
        }
    }

    @Test func withoutASecretEveryCommandIsRefusedAndSaysWhy() async throws {
        try await Self.withBroker("mqtt-commands-no-secret", watching: [Self.result, "floorscan/status"]) { broker, watcher, _ in
            let wall = SetWallClock(Self.start)
            try await withMQTTSwitchd(broker: broker, wallClock: wall.wallClock, configure: { $0.acceptsCommands = true }) { switchd in
                _ = try await watcher.waitFor("floorscan/status", payload: .equal("online"))
                let now = Int64(Self.start.timeIntervalSince1970) + 30
                wall.set(Date(timeIntervalSince1970: TimeInterval(now)))
                try await MQTTSwitchd.publish(try Self.signed(#"{"switch": {"scanning": true}, "requestID": "r1"}"#, at: now), on: Self.topic, port: broker.port)
                let answer = try await watcher.waitFor(Self.result).decoded(Answer.self, with: JSONCoding.decoder())
                #expect(!answer.accepted && answer.error?.code == "no_command_secret" && answer.requestID == "r1", "\(answer)")
                #expect(try await switchd.client.scanSwitch().revision == 1)
            }
        }
    }

    @Test func withoutTheOptionCommandsAreIgnored() async throws {
        let discovery = "homeassistant/device_tracker/floorscan_default/location/config"
        try await Self.withBroker("mqtt-no-commands", watching: [Self.result, discovery]) { broker, watcher, _ in
            let wall = SetWallClock(Self.start)
            try await withMQTTSwitchd(broker: broker, wallClock: wall.wallClock, configure: { $0.commandSecret = try? MQTTCommandSecret(Self.secretText) }) { switchd in
                _ = try await watcher.waitFor(discovery)
                let now = Int64(Self.start.timeIntervalSince1970) + 30
                wall.set(Date(timeIntervalSince1970: TimeInterval(now)))
                try await MQTTSwitchd.publish(try Self.signed(#"{"switch": {"scanning": true}}"#, at: now), on: Self.topic, port: broker.port)
                // Home Assistant's birth message, published after the command: switchd announces
                // again once it has it, and it would have had the command first had it subscribed.
                try await MQTTSwitchd.publish("online", on: "homeassistant/status", port: broker.port)
                _ = try await watcher.waitFor(count: 2, discovery)
                #expect(!watcher.messages.contains { $0.topic == Self.result }, "no answer: switchd does not listen for commands")
                let scanSwitch = try await switchd.client.scanSwitch()
                #expect(scanSwitch.revision == 1 && !scanSwitch.scanning)
            }
        }
    }

    /// A real broker and a subscriber to `topics` on it, for `body`; both are removed after it.
    static func withBroker(
        _ name: String, watching topics: [String], _ body: (MosquittoBroker, MQTTWatcher, TemporaryFolder) async throws -> Void
    ) async throws {
        let folder = try TemporaryFolder(name)
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: topics, folder: folder)
        do {
            try await body(broker, watcher, folder)
        } catch {
            await watcher.stop()
            await broker.remove()
            throw error
        }
        await watcher.stop()
        await broker.remove()
    }

    /// The shell example of docs/mqtt.md's Commands section (the `sh` block after the
    /// `signed-command-example` marker), with the variables in `values` set instead of as shown.
    ///
    /// - Throws: when the block or one of the variables is not there.
    static func documentedExample(setting values: [String: String]) throws -> String {
        let text = try String(contentsOfFile: repositoryFile("docs/mqtt.md"), encoding: .utf8)
        guard let marker = text.range(of: "<!-- signed-command-example -->"),
              let open = text.range(of: "```sh\n", range: marker.upperBound..<text.endIndex),
              let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex) else {
            throw HarnessError("docs/mqtt.md has no sh block after <!-- signed-command-example -->")
        }
        var missing = Set(values.keys)
        let lines = text[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map { line in
            for (name, value) in values where line.hasPrefix(name + "=") {
                missing.remove(name)
                return "\(name)='\(value)'"
            }
            return String(line)
        }
        guard missing.isEmpty else { throw HarnessError("the example in docs/mqtt.md no longer sets \(missing.sorted())") }
        return "set -eu\n" + lines.joined(separator: "\n")
    }
}
