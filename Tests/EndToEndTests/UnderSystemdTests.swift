import Foundation
import Harness
import ScanContract
import Testing

/// Both daemons started as systemd starts a `Type=notify` unit with `WatchdogSec=`: a real notify
/// socket, `WATCHDOG_USEC` and `JOURNAL_STREAM` in the environment. Checks readiness, watchdog
/// pings, the stop notice, journal-style log lines, what SIGTERM drains, and scannerd's counters
/// arriving on switchd's `/metrics`.
@Suite("End to end: under systemd", .serialized)
struct UnderSystemdTests {
    /// Pings every 100 ms.
    static let watchdogUsec = "200000"

    func systemdEnvironment(_ receiver: NotifySocketReceiver) -> [String: String] {
        ["NOTIFY_SOCKET": receiver.notifySocket, "WATCHDOG_USEC": Self.watchdogUsec, "JOURNAL_STREAM": "8:12345"]
    }

    @Test func switchdSaysReadyPingsAndFinishesARequestInFlightOnSIGTERM() async throws {
        let folder = try TemporaryFolder("systemd-switchd")
        defer { folder.remove() }
        let receiver = try NotifySocketReceiver()
        let switchd = try ManagedProcess(
            name: "switchd", executable: try Binaries.url("switchd"),
            arguments: ["--host", "127.0.0.1", "--port", "0", "--state-dir", folder.path("state"), "--log-level", "debug"],
            stderrPath: folder.path("switchd.stderr"), environment: systemdEnvironment(receiver)
        )
        defer { switchd.signal(SIGKILL) }

        let port = try await listeningPort(of: switchd)
        let ready = try await receiver.waitForMessage { $0.hasPrefix("READY=1") }
        #expect(ready == "READY=1\nSTATUS=listening on 127.0.0.1:\(port)")
        _ = try await receiver.waitForMessage { _ in receiver.messages().filter { $0 == "WATCHDOG=1" }.count >= 3 }

        // A long-poll held by switchd is in flight when SIGTERM comes: it still gets its answer.
        let adminToken = try readToken(folder.path("state") + "/admin.token")
        let api = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: adminToken)
        let current = try await api.scanSwitch()
        // Held for the longest wait switchd allows, so an answer well before it cannot be the wait's end.
        let inFlight = Task { try await api.send("GET", "/v1/scanners/default/switch?revision=\(current.revision)&wait=60") }
        _ = try await switchd.waitForLogLine { $0.contains("Long-poll waiting") }
        let started = ContinuousClock.now
        switchd.signal(SIGTERM)
        let answer = try await inFlight.value
        #expect(answer.status == 200)
        #expect(try answer.decode(ScanSwitch.self).revision == current.revision)
        #expect(ContinuousClock.now - started < .seconds(30), "shutdown does not wait for the long-poll's 60 s")
        #expect(await switchd.terminate() == 0, "switchd's log:\n\(switchd.stderrTail(60))")
        _ = try await receiver.waitForMessage { $0.hasPrefix("STOPPING=1") }

        let log = try String(contentsOfFile: folder.path("switchd.stderr"), encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.range(of: #"^<[2-7]>[^: ]+: "#, options: .regularExpression) != nil }, "journal lines: \(log)")
    }

    @Test func scannerdReportsCountersToSwitchdAndSealsItsSpoolOnSIGTERM() async throws {
        let folder = try TemporaryFolder("systemd-scannerd")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder)
        defer { switchd.process.signal(SIGKILL) }
        let api = switchd.adminClient()
        let room = try await api.createRoom("Lab", floor: try await api.createFloor("Ground"))
        let location = try await api.createLocation(in: room, x: 4, y: 4)
        _ = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(location.id)))

        let receiver = try NotifySocketReceiver(abstract: true)
        let state = folder.path("scannerd-state")
        let tokenFile = try writeTokenFile(try await switchd.issueScannerToken(name: "scannerd"), in: folder, label: "scannerd")
        let scannerd = try ManagedProcess(
            name: "scannerd", executable: try Binaries.url("scannerd"),
            arguments: [
                "run", "--switchd", switchd.baseURL.absoluteString, "--token-file", tokenFile, "--state-dir", state, "--radio", "simulated",
                "--sim-wifi-scan-ms", "100", "--counters-interval-s", "1",
                // Nothing is sealed by size or age while the test runs: SIGTERM must seal it.
                "--batch-size", "5000", "--batch-age-ms", "600000", "--events", folder.path("events.jsonl"),
            ],
            stderrPath: folder.path("scannerd.stderr"), environment: systemdEnvironment(receiver)
        )
        defer { scannerd.signal(SIGKILL) }

        let ready = try await receiver.waitForMessage { $0.hasPrefix("READY=1") }
        #expect(ready.contains("STATUS=scanner default reporting to \(switchd.baseURL.absoluteString)"))
        let samples = try await waitForMetrics(api, timeout: .seconds(60)) {
            $0[#"scannerd_advertisements_total{scanner="default"}"#] > 0 && $0[#"scannerd_wifi_scans_total{scanner="default"}"#] > 0
        }
        #expect(samples[#"scannerd_spool_depth_batches{scanner="default"}"#] == 0)
        #expect(receiver.messages().contains("WATCHDOG=1"), "pinged while scanning")

        #expect(await scannerd.terminate() == 0)
        _ = try await receiver.waitForMessage { $0.hasPrefix("STOPPING=1") }
        let journal = try FileManager.default.contentsOfDirectory(atPath: state + "/spool/journal").filter { !$0.hasPrefix(".") }
        let waiting = try FileManager.default.contentsOfDirectory(atPath: state + "/spool/ready").filter { !$0.hasPrefix(".") }
        #expect(journal.isEmpty, "nothing left unsealed")
        #expect(waiting.count == 1, "the open batch was sealed to disk, waiting for the next start to upload it")
        #expect(ScannerEvent.read(from: folder.path("events.jsonl")).contains { $0.event == "sealed" })
        #expect(await switchd.process.terminate() == 0)
    }

    /// Scrapes `/metrics` until `done` holds.
    func waitForMetrics(_ api: APIClient, timeout: Duration, until done: (PrometheusSamples) -> Bool) async throws -> PrometheusSamples {
        let deadline = ContinuousClock.now + timeout
        var samples = PrometheusSamples("")
        while ContinuousClock.now < deadline {
            let response = try await api.send("GET", "/metrics")
            samples = PrometheusSamples(String(decoding: response.body, as: UTF8.self))
            if done(samples) { return samples }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw HarnessError("/metrics did not show the expected values within \(timeout); last: \(samples.values.filter { $0.key.hasPrefix("scannerd_") })")
    }
}
