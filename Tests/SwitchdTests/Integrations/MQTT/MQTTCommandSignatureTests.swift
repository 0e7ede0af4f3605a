import Foundation
import Harness
import Testing
@testable import switchd

/// The pieces of a signed MQTT command without a broker: the form, the MAC, the window and the
/// bounded nonce memory, and the secret file.
@Suite("MQTT command signatures")
struct MQTTCommandSignatureTests {
    static let secret = try! MQTTCommandSecret(MQTTCommandTests.secretText)
    static let topic = "floorscan/scanners/pi-lab/switch/set"
    static let t0: Int64 = 1_800_000_000

    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    @Test func theMACCoversTopicTimestampNonceAndBody() throws {
        let body = Array(#"{"switch": {"scanning": true}}"#.utf8)
        let payload = MQTTSignedCommand.payload(body: body, topic: Self.topic, timestamp: Self.t0, nonce: "0123456789abcdef", secret: Self.secret)
        let command = try MQTTSignedCommand(parsing: payload)
        #expect(command.timestamp == Self.t0 && command.nonce == "0123456789abcdef" && command.body == body)
        #expect(command.isAuthentic(on: Self.topic, secret: Self.secret))
        #expect(!command.isAuthentic(on: "floorscan/scanners/other/switch/set", secret: Self.secret))
        #expect(!command.isAuthentic(on: Self.topic, secret: try MQTTCommandSecret(String(repeating: "k", count: 32))))
        var later = command
        later.timestamp += 1
        var otherNonce = command
        otherNonce.nonce = "0123456789abcdeg"
        var longer = command
        longer.body += [0x20]
        for altered in [later, otherNonce, longer] {
            #expect(!altered.isAuthentic(on: Self.topic, secret: Self.secret))
        }
    }

    @Test func theOldFormAndMalformedLinesAreRefusedSayingWhy() {
        func refusal(_ text: String) -> MQTTCommandRefusal? {
            do {
                _ = try MQTTSignedCommand(parsing: Array(text.utf8))
                return nil
            } catch {
                return error
            }
        }
        let mac = String(repeating: "ab", count: 32)
        #expect(refusal(#"{"token": "fst_x", "switch": {"scanning": true}}"#) == .tokenInCommand)
        #expect(refusal("{\n  \"token\": \"fst_x\",\n  \"switch\": {}\n}") == .tokenInCommand)
        #expect(refusal("v1 1800000000 0123456789abcdef \(mac)\n{}") == nil)
        let malformed = [
            #"{"switch": {"scanning": true}}"#,
            "v2 1800000000 0123456789abcdef \(mac)\n{}",
            "v1 1800000000 0123456789abcdef\n{}",
            "v1  1800000000 0123456789abcdef \(mac)\n{}",
            "v1 -1800000000 0123456789abcdef \(mac)\n{}",
            "v1 1800000000 short \(mac)\n{}",
            "v1 1800000000 0123456789abcdef/ \(mac)\n{}",
            "v1 1800000000 0123456789abcdef \(mac.dropLast())\n{}",
            "v1 1800000000 0123456789abcdef \(mac.dropLast())g\n{}",
        ]
        for text in malformed {
            guard case .unsigned(let why) = refusal(text) else {
                Issue.record("not refused as unsigned: \(text)")
                continue
            }
            #expect(!why.isEmpty)
        }
    }

    @Test func commandsOutsideTheWindowOrReplayedAreRefused() {
        let nonces = MQTTCommandNonces(window: MQTTCommandWindow(maxAge: 60, maxAhead: 10, nonceCapacity: 100))
        let now = Self.date(Self.t0)
        #expect(nonces.admit(timestamp: Self.t0, nonce: "a", at: now) == nil)
        #expect(nonces.admit(timestamp: Self.t0, nonce: "a", at: now) == .replayed)
        #expect(nonces.admit(timestamp: Self.t0 - 60, nonce: "b", at: now) == nil, "exactly the oldest allowed")
        #expect(nonces.admit(timestamp: Self.t0 - 61, nonce: "c", at: now) == .expired(timestamp: Self.t0 - 61, now: Self.t0, maxAge: 60))
        #expect(nonces.admit(timestamp: Self.t0 + 10, nonce: "d", at: now) == nil, "exactly the skew allowed")
        #expect(nonces.admit(timestamp: Self.t0 + 11, nonce: "e", at: now) == .future(timestamp: Self.t0 + 11, now: Self.t0, maxAhead: 10))
        // A replay once the command has left the window is refused as old; its nonce is forgotten.
        #expect(nonces.admit(timestamp: Self.t0, nonce: "a", at: Self.date(Self.t0 + 61)) == .expired(timestamp: Self.t0, now: Self.t0 + 61, maxAge: 60))
        #expect(nonces.count == 1, "only d (stamped t0 + 10) is still in the window")
    }

    @Test func theNonceMemoryIsBoundedAndForgettingLetsNoReplayThrough() {
        let nonces = MQTTCommandNonces(window: MQTTCommandWindow(maxAge: 60, maxAhead: 10, nonceCapacity: 3))
        let now = Self.date(Self.t0)
        for (offset, nonce) in [(-30, "n1"), (-20, "n2"), (-10, "n3"), (-5, "n4"), (0, "n5")] {
            #expect(nonces.admit(timestamp: Self.t0 + Int64(offset), nonce: nonce, at: now) == nil)
            #expect(nonces.count <= 3)
        }
        #expect(nonces.count == 3)
        // n1 and n2 were let go; the horizon rose to n2's stamp, so neither comes back.
        #expect(nonces.admit(timestamp: Self.t0 - 30, nonce: "n1", at: now) == .beforeHorizon(timestamp: Self.t0 - 30, horizon: Self.t0 - 20))
        #expect(nonces.admit(timestamp: Self.t0 - 20, nonce: "n2", at: now) == .beforeHorizon(timestamp: Self.t0 - 20, horizon: Self.t0 - 20))
        #expect(nonces.admit(timestamp: Self.t0 - 5, nonce: "n4", at: now) == .replayed)
        // Full, and older than all remembered: refused without letting a newer one go.
        #expect(nonces.admit(timestamp: Self.t0 - 15, nonce: "n6", at: now) == .beforeHorizon(timestamp: Self.t0 - 15, horizon: Self.t0 - 10))
        #expect(nonces.admit(timestamp: Self.t0 - 10, nonce: "n3", at: now) == .replayed)
        // A flood of distinct nonces keeps the memory at its capacity.
        for index in 0..<1_000 {
            _ = nonces.admit(timestamp: Self.t0 + Int64(index % 10), nonce: "flood-\(index)", at: now)
        }
        #expect(nonces.count == 3)
    }

    @Test func startingToListenRefusesWhatAPreviousHolderMayHaveTaken() {
        let nonces = MQTTCommandNonces(window: MQTTCommandWindow(maxAge: 60, maxAhead: 10, nonceCapacity: 100))
        nonces.startListening(at: Self.date(Self.t0))
        #expect(nonces.admit(timestamp: Self.t0 + 10, nonce: "taken-before", at: Self.date(Self.t0 + 5)) == .beforeHorizon(timestamp: Self.t0 + 10, horizon: Self.t0 + 10))
        #expect(nonces.admit(timestamp: Self.t0 + 11, nonce: "new", at: Self.date(Self.t0 + 5)) == nil)
    }

    @Test func theSecretFileMustBeClosedToOthersAndHoldALongSecretThatIsNoToken() throws {
        let folder = try TemporaryFolder("mqtt-command-secret")
        defer { folder.remove() }
        func file(_ text: String, mode: Int) -> String {
            let path = folder.path("secret-\(UUID().uuidString.prefix(8))")
            FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
            return path
        }
        func problem(_ path: String) -> String? {
            do {
                _ = try MQTTCommandSecret.read(path)
                return nil
            } catch {
                return "\(error)"
            }
        }
        let good = MQTTCommandTests.secretText + "\n"
        #expect(problem(file(good, mode: 0o600)) == nil)
        #expect(problem(file(good, mode: 0o640)) == nil)
        for mode in [0o644, 0o604, 0o660, 0o602] {
            let message = problem(file(good, mode: mode))
            #expect(message?.contains("mode \(String(mode, radix: 8)) lets other users read or change it") == true, "\(mode): \(message ?? "accepted")")
        }
        #expect(problem(file("short\n", mode: 0o600))?.contains("needs at least 32") == true)
        #expect(problem(file("fst_" + String(repeating: "a", count: 43) + "\n", mode: 0o600))?.contains("never an HTTP token") == true)
        #expect(problem(folder.path("missing"))?.contains("--mqtt-command-secret-file") == true)
        let secret = try MQTTCommandSecret.read(file(good, mode: 0o600))
        #expect(!"\(secret)".contains(MQTTCommandTests.secretText) && !String(reflecting: secret).contains(MQTTCommandTests.secretText))
    }

    @Test func theOptionReadsTheSecretAtStartOnly() throws {
        let folder = try TemporaryFolder("mqtt-command-secret-option")
        defer { folder.remove() }
        let path = folder.path("mqtt-command.secret")
        FileManager.default.createFile(atPath: path, contents: Data(MQTTCommandTests.secretText.utf8), attributes: [.posixPermissions: 0o644])
        let options = try MQTTOptions.parse(["--mqtt-broker", "mqtt://127.0.0.1", "--mqtt-commands", "--mqtt-command-secret-file", path])
        #expect(try options.settings(readingSecrets: false)?.commandSecret == nil, "validating reads no file")
        #expect(throws: MQTTSettingsError.self) { try options.settings(readingSecrets: true) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try options.settings(readingSecrets: true)?.commandSecret != nil)
        let withoutBroker = try MQTTOptions.parse(["--mqtt-command-secret-file", path])
        #expect(throws: MQTTSettingsError.self) { try withoutBroker.settings(readingSecrets: true) }
    }
}
