import Foundation
import Harness
import ScanContract
import Testing

/// Idle connections cannot take switchd down: past `--max-connections` the connection idle
/// longest makes room and `/healthz` still answers; idle connections (and half-sent request
/// heads) are closed after `--idle-timeout`, while a live feed and a long-poll outlive it.
@Suite("End to end: idle connections", .serialized)
struct IdleConnectionTests {
    @Test func moreIdleConnectionsThanTheLimitLeaveHealthzAnswering() async throws {
        let folder = try TemporaryFolder("idle-flood")
        defer { folder.remove() }
        let limit = 16
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--max-connections", String(limit), "--idle-timeout", "600"])
        defer { switchd.process.signal(SIGKILL) }

        let flood = try (0..<(limit * 4)).map { _ in try RawConnection(port: switchd.port) }
        defer { flood.forEach { $0.close() } }
        let started = ContinuousClock.now
        let health = try await APIClient(baseURL: switchd.baseURL).send("GET", "/healthz")
        print("IdleConnectionTests: \(flood.count) idle connections open, limit \(limit): /healthz \(health.status) in \(ContinuousClock.now - started)")
        #expect(health.status == 200)

        // The first connection is the one idle longest: switchd closed it to make room.
        _ = try await flood[0].readUntilClosed(timeout: .seconds(60))
        let metrics = PrometheusSamples(try await switchd.adminClient().send("GET", "/metrics").text)
        #expect(metrics["switchd_connection_limit_reached_total"] >= 1)
        #expect(metrics["switchd_connections_open"] <= Double(limit))
        let log = switchd.process.stderrTail(400)
        #expect(log.components(separatedBy: "Connection limit reached").count == 2, "logged once, not once per connection:\n\(log)")
    }

    @Test func idleConnectionsCloseAfterTheTimeoutWhileFeedsAndLongPollsLive() async throws {
        let folder = try TemporaryFolder("idle-timeout")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--idle-timeout", "1"])
        defer { switchd.process.signal(SIGKILL) }
        let api = switchd.adminClient()
        let feed = EventStreamClient(url: switchd.baseURL.appendingPathComponent("v1/scanners/default/switch/stream"), token: switchd.adminToken)
        defer { feed.close() }
        let first = try await feed.waitForEvents(1).count
        let revision = try await api.scanSwitch().revision
        let longPoll = Task { try await api.send("GET", "/v1/scanners/default/switch?revision=\(revision)&wait=120") }

        let silent = try RawConnection(port: switchd.port)
        let halfHead = try RawConnection(port: switchd.port)
        try halfHead.send("GET /healthz HTTP/1.1\r\nHost: switchd\r\n")
        let opened = ContinuousClock.now
        _ = try await silent.readUntilClosed(timeout: .seconds(60))
        let silentClosed = ContinuousClock.now - opened
        _ = try await halfHead.readUntilClosed(timeout: .seconds(60))
        print("IdleConnectionTests: idle timeout 1 s; a silent connection closed after \(silentClosed), a half-sent head after \(ContinuousClock.now - opened)")
        #expect(silentClosed >= .seconds(1))

        let flipped = try await api.patchSwitch(SwitchPatch(scanning: true))
        let answered = try await longPoll.value
        #expect(answered.status == 200, "the long-poll outlived the idle timeout: \(answered.text)")
        #expect(try answered.decode(ScanSwitch.self).revision == flipped.revision)
        #expect(try await feed.waitForEvents(first + 1).count == first + 1, "the feed outlived the idle timeout")
    }

    @Test func anHTTP10ConnectionIsClosedAfterItsAnswer() async throws {
        let folder = try TemporaryFolder("http10")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder)
        defer { switchd.process.signal(SIGKILL) }
        let connection = try RawConnection(port: switchd.port)
        try connection.send("GET /healthz HTTP/1.0\r\n\r\n")
        let answer = try await connection.readUntilClosed(timeout: .seconds(60))
        #expect(answer.contains(" 200 "), "\(answer)")

        let closing = try RawConnection(port: switchd.port)
        try closing.send("GET /healthz HTTP/1.1\r\nHost: switchd\r\nConnection: Close\r\n\r\n")
        #expect(try await closing.readUntilClosed(timeout: .seconds(60)).contains(" 200 "))
    }

    @Test func aBadChunkSizeIs400() async throws {
        let folder = try TemporaryFolder("bad-chunk")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder)
        defer { switchd.process.signal(SIGKILL) }
        let connection = try RawConnection(port: switchd.port)
        try connection.send(
            "POST /v1/floors HTTP/1.1\r\nHost: switchd\r\nAuthorization: Bearer \(switchd.adminToken)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
        )
        let head = try await connection.readResponseHead(timeout: .seconds(60))
        #expect(head.hasPrefix("HTTP/1.1 400 "), "\(head)")
        #expect(try await APIClient(baseURL: switchd.baseURL).send("GET", "/healthz").status == 200)
    }
}
