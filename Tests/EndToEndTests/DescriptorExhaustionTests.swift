import Foundation
import Harness
import ScanContract
import Testing

/// switchd under a tiny open-file limit (`prlimit --nofile=64`, so `--max-connections` is lowered
/// to 1) with that one connection held by a live feed and a flood of connections beyond it: it
/// stays up, answers health checks, refuses everything else with 503 `overloaded` and
/// `Retry-After` (logged once, counted), and serves normally again once the feed ends.
@Suite("End to end: descriptor exhaustion", .serialized)
struct DescriptorExhaustionTests {
    static let openFileLimit = 64

    @Test func underATinyDescriptorLimitSwitchdRefusesCleanlyKeepsHealthAndRecovers() async throws {
        let folder = try TemporaryFolder("descriptor-limit")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(
            in: folder, arguments: ["--log-level", "debug"], openFileLimit: Self.openFileLimit
        )
        defer { switchd.process.signal(SIGKILL) }
        let auth = "Authorization: Bearer \(switchd.adminToken)\r\n"

        // The one connection switchd may hold, taken by a live feed.
        let feed = try RawConnection(port: switchd.port)
        try feed.send("GET /v1/scanners/default/switch/stream HTTP/1.1\r\nHost: switchd\r\n\(auth)\r\n")
        #expect(try await feed.readResponseHead(timeout: .seconds(60)).hasPrefix("HTTP/1.1 200"))

        let health = try RawConnection(port: switchd.port)
        try health.send("GET /healthz HTTP/1.1\r\nHost: switchd\r\n\r\n")
        let healthAnswer = try await health.readUntilClosed(timeout: .seconds(60))
        #expect(healthAnswer.hasPrefix("HTTP/1.1 200"), "\(healthAnswer)")

        let refused = try RawConnection(port: switchd.port)
        try refused.send("GET /v1/scanners HTTP/1.1\r\nHost: switchd\r\n\(auth)\r\n")
        let refusal = try await refused.readUntilClosed(timeout: .seconds(60))
        #expect(refusal.hasPrefix("HTTP/1.1 503"), "\(refusal)")
        #expect(refusal.lowercased().contains("retry-after: 1\r\n") && refusal.contains("\"overloaded\""), "\(refusal)")

        // Far more connections than switchd has descriptors: each health check is answered in turn.
        let flood = try (0..<(Self.openFileLimit * 2)).map { _ in try RawConnection(port: switchd.port) }
        defer { flood.forEach { $0.close() } }
        for connection in flood {
            try connection.send("GET /healthz HTTP/1.1\r\nHost: switchd\r\n\r\n")
        }
        var healthy = 0
        for connection in flood where try await connection.readUntilClosed(timeout: .seconds(120)).hasPrefix("HTTP/1.1 200") {
            healthy += 1
        }
        #expect(healthy == flood.count)
        #expect(switchd.process.isRunning)
        let log = switchd.process.stderrTail(2000)
        #expect(log.contains("--max-connections lowered to fit the open-file limit"))
        #expect(log.components(separatedBy: "every connection is busy").count == 2, "logged once per episode:\n\(log)")

        // The feed's client leaves: its connection goes, and switchd serves as before.
        feed.close()
        _ = try await switchd.process.waitForLogLine(timeout: .seconds(60)) { $0.contains("Switch stream client left") }
        let api = switchd.adminClient()
        #expect(try await api.send("GET", "/v1/scanners").status == 200)
        let metrics = PrometheusSamples(try await api.send("GET", "/metrics").text)
        #expect(metrics["switchd_connections_refused_total"] >= 1)
        #expect(metrics["switchd_connection_limit_reached_total"] >= 1)
        #expect(switchd.process.isRunning)
    }

    /// Under `prlimit --nofile=256:4096` (a soft limit left below the hard one, as a login shell
    /// or a unit without `LimitNOFILE=` gives), switchd raises its soft limit to fit
    /// `--max-connections` instead of holding a quarter of them.
    @Test func aSoftLimitBelowTheHardOneIsRaisedToFitTheConnections() async throws {
        let folder = try TemporaryFolder("descriptor-raise")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(
            in: folder, arguments: ["--max-connections", "1000"], openFileLimit: 256, openFileHardLimit: 4096
        )
        defer { switchd.process.signal(SIGKILL) }
        let limits = try String(contentsOfFile: "/proc/\(switchd.process.pid)/limits", encoding: .utf8)
        let openFiles = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        // "Max open files            1080                 4096                 files"
        let softAndHard = openFiles.split(separator: " ").dropFirst(3).prefix(2).map(String.init)
        #expect(softAndHard == ["1080", "4096"], "\(openFiles)")
        let log = switchd.process.stderrTail(200)
        #expect(log.contains("Open-file limit raised to fit --max-connections"), "\(log)")
        #expect(!log.contains("--max-connections lowered"), "\(log)")
    }
}
