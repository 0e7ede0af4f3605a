import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real MQTT subscriber (Debian's `mosquitto_sub`) printing each message it gets as one JSON
/// line, so a test sees what any client of the broker sees.
public final class MQTTWatcher: Sendable {
    /// One message as `mosquitto_sub -F %j` prints it.
    public struct Message: Decodable, Sendable, Equatable {
        public var topic: String
        /// Empty for an empty payload (which mosquitto_sub prints as `null`).
        public var payload: String
        public var qos: Int
        /// 1 for a retained message the broker kept (sent on subscribing), else 0.
        public var retain: Int

        /// When mosquitto_sub received it (its `tst`, microseconds, UTC).
        public var receivedAt: Date?

        enum CodingKeys: String, CodingKey {
            case topic, payload, qos, retain, tst
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            topic = try container.decode(String.self, forKey: .topic)
            payload = try container.decodeIfPresent(String.self, forKey: .payload) ?? ""
            qos = try container.decode(Int.self, forKey: .qos)
            retain = try container.decode(Int.self, forKey: .retain)
            receivedAt = try container.decodeIfPresent(String.self, forKey: .tst).flatMap(Self.receiptTime)
        }

        /// `2026-11-23T23:13:47.802672Z+0000`, as mosquitto_sub 2.0 prints `tst`.
        static func receiptTime(_ text: String) -> Date? {
            let parts = text.split(separator: ".")
            guard parts.count == 2, let whole = ISO8601DateFormatter().date(from: parts[0] + "Z") else { return nil }
            guard let micros = Double(parts[1].prefix { $0.isNumber }) else { return nil }
            return whole.addingTimeInterval(micros / 1_000_000)
        }

        /// The payload read as `type` (JSON).
        ///
        /// - Throws: ``HarnessError`` naming the topic, the type and the payload.
        public func decoded<T: Decodable>(_ type: T.Type, with decoder: JSONDecoder = JSONDecoder()) throws -> T {
            do {
                return try decoder.decode(type, from: Data(payload.utf8))
            } catch {
                throw HarnessError("\(topic): cannot read \(type) from \(payload.prefix(300)): \(error)")
            }
        }

        /// A line `mosquitto_sub -F %j` printed, or nil for the watcher's own ready marker (and for a
        /// line that is no message, which mosquitto_sub does not print on its standard output).
        static func parse(_ line: String) -> Message? {
            guard let message = try? JSONDecoder().decode(Message.self, from: Data(line.utf8)),
                  !message.topic.hasPrefix(MQTTWatcher.markerPrefix) else { return nil }
            return message
        }
    }

    public static let executable = "/usr/bin/mosquitto_sub"
    static let markerPrefix = "floorscan-harness/"
    private let process: ManagedProcess
    private let port: Int

    /// Subscribes to `topics` (filters, `#` allowed) at QoS 1 and returns once subscribed.
    ///
    /// - Throws: ``HarnessError`` when mosquitto_sub is missing or does not subscribe within 30 s.
    public init(port: Int, topics: [String], folder: TemporaryFolder) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw HarnessError("no \(Self.executable): install Debian's mosquitto-clients")
        }
        self.port = port
        let marker = "\(Self.markerPrefix)ready/\(UUID().uuidString)"
        var arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-F", "%j", "-t", marker]
        for topic in topics { arguments += ["-t", topic] }
        process = try ManagedProcess(
            name: "mosquitto_sub", executable: URL(fileURLWithPath: Self.executable), arguments: arguments,
            stderrPath: folder.path("mosquitto_sub-\(UUID().uuidString.prefix(8)).log")
        )
        // Subscribed once a message on its own marker topic comes back.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            _ = try await runToEnd(at: URL(fileURLWithPath: "/usr/bin/mosquitto_pub"), ["-h", "127.0.0.1", "-p", String(port), "-t", marker, "-m", "ready"])
            if (try? await process.waitForLine(timeout: .milliseconds(200), where: { $0.contains(marker) })) != nil { return }
        }
        throw HarnessError("mosquitto_sub did not subscribe within 60 s: \(process.stderrTail())")
    }

    /// Every message received so far, in order (the ready marker left out).
    public var messages: [Message] {
        process.outputLines.compactMap(Message.parse)
    }

    /// What a waited-for message's payload must be.
    public enum Payload: Sendable {
        case any
        case empty
        case nonEmpty
        case equal(String)
        case containing(String)

        func admits(_ payload: String) -> Bool {
            switch self {
            case .any: true
            case .empty: payload.isEmpty
            case .nonEmpty: !payload.isEmpty
            case .equal(let text): payload == text
            case .containing(let text): payload.contains(text)
            }
        }
    }

    /// Waits until a message on a topic matching `filter` (MQTT wildcards `+` and `#` allowed)
    /// with such a payload has been received, and returns the first.
    ///
    /// - Throws: ``HarnessError`` when none comes within `timeout` of the last line printed.
    public func waitFor(_ filter: String, payload: Payload = .any, timeout: Duration = .seconds(60)) async throws -> Message {
        try await waitFor(count: 1, filter, payload: payload, timeout: timeout)[0]
    }

    /// Waits until `count` such messages have been received and returns them in order.
    ///
    /// - Throws: ``HarnessError`` when they do not come within `timeout` of the last line printed.
    public func waitFor(count: Int, _ filter: String, payload: Payload = .any, timeout: Duration = .seconds(60)) async throws -> [Message] {
        var next = 0
        var found: [Message] = []
        while found.count < count {
            let (index, line) = try await process.waitForLine(from: next, timeout: timeout) { _ in true }
            next = index + 1
            if let message = Message.parse(line), Self.topic(message.topic, matches: filter), payload.admits(message.payload) {
                found.append(message)
            }
        }
        return found
    }

    /// Whether `topic` matches the subscription filter `filter` (MQTT 3.1.1 section 4.7).
    public static func topic(_ topic: String, matches filter: String) -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in filterLevels.enumerated() {
            if level == "#" { return true }
            guard index < levels.count, level == "+" || level == levels[index] else { return false }
        }
        return levels.count == filterLevels.count
    }

    /// A test that failed before ``stop()`` leaves no subscriber behind.
    deinit {
        process.signal(SIGKILL)
    }

    /// Ends mosquitto_sub (SIGKILL: a child of the test runner may inherit SIGTERM ignored).
    public func stop() async {
        await process.kill()
    }
}
