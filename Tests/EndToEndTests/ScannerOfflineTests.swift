import Foundation
import Harness
import ScanContract
import Testing

/// A scanner's health through real processes: scannerd reports its version and radios with its
/// counters; SIGKILLed, it falls silent and switchd (`--scanner-offline-after 2`) raises
/// `scannerOffline`; started again, its first report raises `scannerOnline`.
@Suite("End to end: a scanner going offline and back", .serialized)
struct ScannerOfflineTests {
    @Test func aKilledScannerGoesOfflineAndItsRestartBringsItBack() async throws {
        let folder = try TemporaryFolder("e2e-offline")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--scanner-offline-after", "2"])
        defer { switchd.process.signal(SIGKILL) }
        let api = switchd.adminClient()
        var scannerd = try await ScannerdInstance.start(in: folder, switchd: switchd, arguments: ["--counters-interval-s", "1"])
        defer { scannerd.process.signal(SIGKILL) }

        let online = try await api.waitForScanner { $0.health?.online == true }
        // The release scannerd is built as: debian/changelog's first entry (VersionTests keeps them equal).
        let changelog = try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/EndToEndTests/ScannerOfflineTests.swift", with: "debian/changelog"), encoding: .utf8)
        let release = try #require(changelog.firstMatch(of: /^floorscan \(([^)]+)\)/)?.output.1)
        #expect(online.health?.version == String(release))
        #expect(online.health?.radios == [], "the simulated radio has no adapter")
        #expect(online.health?.mode == "off" && online.health?.versionMismatch == false)
        #expect(try #require(online.health?.clockSkew).magnitude < 5, "one machine's clock")

        await scannerd.process.kill()
        let offline = try await waitForEvents(api, kind: .scannerOffline, count: 1)
        #expect(offline.map(\.scannerID) == [.default])
        #expect(try await api.call("GET", "/v1/scanners/default", as: ScanContract.Scanner.self).health?.online == false)

        scannerd = try await ScannerdInstance.start(
            in: folder, switchd: switchd, token: scannerd.token, arguments: ["--counters-interval-s", "1"], label: "scannerd-again"
        )
        let back = try await waitForEvents(api, kind: .scannerOnline, count: 1)
        #expect(back.first?.scannerID == .default && back[0].time > offline[0].time)
        #expect(try await api.call("GET", "/v1/scanners/default", as: ScanContract.Scanner.self).health?.online == true)
        #expect(try await waitForEvents(api, kind: .scannerOffline, count: 1).count == 1, "no second offline while it reports")
        #expect(await scannerd.process.terminate() == 0)
        #expect(await switchd.process.terminate() == 0)
    }

    /// Polls `GET /v1/events?kind=` until it holds `count` events (30 s at most).
    func waitForEvents(_ api: APIClient, kind: PresenceEventKind, count: Int) async throws -> [PresenceEvent] {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let events = try await api.call("GET", "/v1/events?kind=\(kind.rawValue)", as: Page<PresenceEvent>.self).items
            if events.count >= count { return events }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HarnessError("no \(count) \(kind.rawValue) event(s) within 30 s")
    }
}
