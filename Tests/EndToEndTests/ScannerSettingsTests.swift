import Foundation
import Harness
import ScanContract
import Testing

/// Settings from switchd through real processes: a running scannerd (simulated radio) is given a
/// new BLE window through `PATCH /v1/scanners/default`; it applies it without a restart (its
/// scan session starts again with it, on its event log), reports the revision back, and
/// `GET /v1/scanners/default` shows the window in effect. A fleet default it cannot apply
/// (`listen` without `--listen`) is reported, not dropped.
@Suite("End to end: settings from switchd", .serialized)
struct ScannerSettingsEndToEndTests {
    @Test func aRunningScannerAppliesANewBLEWindowAndReportsItBack() async throws {
        let folder = try TemporaryFolder("e2e-settings")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder)
        defer { switchd.process.signal(SIGKILL) }
        let api = switchd.adminClient()
        let scannerd = try await ScannerdInstance.start(in: folder, switchd: switchd, arguments: ["--counters-interval-s", "1", "--ble-window-ms", "100"])
        defer { scannerd.process.signal(SIGKILL) }

        // Scanning, with the local settings (its TOML or command line) in effect.
        let on = try await api.call("PATCH", "/v1/scanners/default/switch", json: SwitchPatch(scanning: true, mode: .locate), as: ScanSwitch.self)
        _ = try await scannerd.waitForEvent { $0.event == "scanning" && $0.revision == on.revision }
        let local = try await api.waitForScanner { $0.health?.appliedSettings != nil }
        #expect(local.health?.appliedRevision == nil && local.health?.appliedSettings?.bleWindowMs == 100)
        let pid = scannerd.process.pid

        let patched = try await api.call(
            "PATCH", "/v1/scanners/default", json: ScannerPatch(settings: ScannerSettings(bleWindowMs: 40)), as: ScanContract.Scanner.self
        )
        let revision = try #require(patched.health?.settingsRevision)
        let applied = try await scannerd.waitForEvent { $0.event == "settings" && $0.settingsRevision == revision }
        #expect(applied.settings?.bleWindowMs == 40 && applied.unapplied == [:])
        // The BLE scan started again with the new window: a second session under the same switch revision.
        _ = try await scannerd.waitForEvents(atLeast: 2) { $0.event == "scanning" && $0.revision == on.revision }
        let reported = try await api.waitForScanner { $0.health?.appliedRevision == revision }
        #expect(reported.health?.appliedSettings?.bleWindowMs == 40 && reported.health?.unappliedSettings == [:])
        #expect(reported.health?.settings == ScannerSettings(bleWindowMs: 40))
        #expect(scannerd.process.pid == pid, "applied without a restart")

        // A fleet default this scannerd cannot apply is reported with why; the rest is applied.
        let fleet = try await api.call(
            "PATCH", "/v1/scanners/*", json: ScannerPatch(settings: ScannerSettings(bleIntervalMs: 200, listen: true)), as: FleetSettings.self
        )
        let both = try await api.waitForScanner { $0.health?.appliedRevision == fleet.settingsRevision }
        #expect(both.health?.appliedSettings?.bleIntervalMs == 200 && both.health?.appliedSettings?.bleWindowMs == 40)
        #expect(both.health?.appliedSettings?.listen == false)
        #expect(both.health?.unappliedSettings?["listen"]?.contains("--listen") == true)

        #expect(await scannerd.process.terminate() == 0)
        #expect(await switchd.process.terminate() == 0)
    }
}
