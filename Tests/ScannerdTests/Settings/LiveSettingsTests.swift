import Foundation
import Logging
import Positioning
import ScanContract
import Testing
@testable import scannerd

/// Applying a settings revision from switchd (``LiveSettings``): key by key over the local
/// settings, what cannot be applied reported with why, never dropped; a new BLE window reaches
/// the controller when the BLE scan starts again, and the scan controller starts the running
/// session again for it.
@Suite("Settings from switchd", .timeLimit(.minutes(1)))
struct LiveSettingsTests {
    static let local = LiveSettings.Local(ble: HCIScanSettings(scanType: .passive, intervalMilliseconds: 100, windowMilliseconds: 100))

    func live(listen: Bool = false) -> LiveSettings {
        var local = Self.local
        local.listen = listen
        return LiveSettings(local: local, listenRoleBuilt: listen, bleShared: listen, setsProcessLogLevel: false)
    }

    @Test func aRevisionAppliesKeyByKeyOverTheLocalSettings() {
        let settings = live()
        var change = settings.apply(ScannerSettings(bleScan: "active", bleWindowMs: 30, wifiScanPeriodS: 20, locateWindowMs: 5_000, logLevel: "debug"), revision: 3)
        #expect(change.ble && change.any)
        var applied = settings.applied
        #expect(applied.revision == 3 && applied.unapplied.isEmpty)
        #expect(applied.ble == HCIScanSettings(scanType: .active, intervalMilliseconds: 100, windowMilliseconds: 30))
        #expect(settings.wifiScanPeriod == .seconds(20) && settings.locateWindow == .seconds(5) && applied.logLevel == .debug)
        #expect(applied.settings == ScannerSettings(
            bleScan: "active", bleIntervalMs: 100, bleWindowMs: 30, wifiScanPeriodS: 20, locateWindowMs: 5_000, listen: false,
            listenWindowS: 1, logLevel: "debug"
        ))

        // Only the locate window: the BLE scan need not start again.
        change = settings.apply(ScannerSettings(bleScan: "active", bleWindowMs: 30, locateWindowMs: 1_000), revision: 4)
        #expect(!change.ble && change.any)
        // No settings from switchd: the local ones, all of them.
        change = settings.apply(nil, revision: nil)
        applied = settings.applied
        #expect(change.ble && applied.ble == Self.local.ble && applied.revision == nil && settings.wifiScanPeriod == .zero)
        #expect(applied.logLevel == .info && settings.locateWindow == .seconds(2))
    }

    @Test func whatCannotBeAppliedIsReportedWithWhy() throws {
        let settings = live()
        let future = try JSONCoding.decoder().decode(
            ScannerSettings.self, from: Data(#"{"bleWindowMs":50,"bleIntervalMs":40,"listen":true,"listenWindowS":5,"scanPhy":"coded"}"#.utf8)
        )
        #expect(future.unknownKeys == ["scanPhy"])
        settings.apply(future, revision: 7)
        let applied = settings.applied
        #expect(applied.revision == 7)
        #expect(Set(applied.unapplied.keys) == ["scanPhy", "bleWindowMs", "bleIntervalMs", "listen", "listenWindowS"])
        #expect(applied.unapplied["scanPhy"]?.contains("knows") == true)
        #expect(applied.unapplied["listen"]?.contains("--listen") == true)
        #expect(applied.ble == Self.local.ble, "a window over the interval leaves the local BLE settings")

        // Saved and read back (the switch file), the unknown key is still known to be unknown.
        let again = try JSONCoding.decoder().decode(ScannerSettings.self, from: JSONCoding.encoder().encode(future))
        #expect(again.unknownKeys == ["scanPhy"] && again.bleWindowMs == 50)

        // A BLE scan shared with the listening role runs on: new timing waits for the next start.
        let listening = live(listen: true)
        let change = listening.apply(ScannerSettings(bleWindowMs: 20, listen: false), revision: 8)
        #expect(!change.ble && change.listen && !listening.listening)
        #expect(listening.applied.unapplied["bleWindowMs"]?.contains("next start") == true)
    }

    @Test func aNewWindowReachesTheControllerWhenTheBLEScanStartsAgain() async throws {
        let settings = live()
        let scanner = { (controller: ScriptedController) in
            HCIBLEScanner(
                device: "hci0", settings: Self.local.ble, counters: RadioCounters(), events: .disabled(logger: quietLogger),
                logger: quietLogger, currentSettings: { settings.ble }, open: { _ in controller }
            )
        }
        func armedParameters(_ scanner: HCIBLEScanner, _ controller: ScriptedController) async throws -> [UInt8]? {
            for try await _ in scanner.advertisements() { break }
            for await _ in controller.closing {}
            return controller.sent.first { $0.opcode == 0x200B }?.parameters
        }
        let first = ScriptedController(supportedCommands: ScriptedController.bitmap(), script: [.packet(iBeaconReport())], stop: StopSignal())
        #expect(try await armedParameters(scanner(first), first) == [0x00, 0xA0, 0x00, 0xA0, 0x00, 0x00, 0x00], "passive, 100 ms, 100 ms")
        settings.apply(ScannerSettings(bleScan: "active", bleWindowMs: 25), revision: 1)
        let second = ScriptedController(supportedCommands: ScriptedController.bitmap(), script: [.packet(iBeaconReport())], stop: StopSignal())
        #expect(try await armedParameters(scanner(second), second) == [0x01, 0xA0, 0x00, 0x28, 0x00, 0x00, 0x00], "active, 100 ms, 25 ms")
    }

    @Test func aNewBLEWindowStartsTheRunningSessionAgainAndItsCountGoesOn() async throws {
        let settings = live()
        let rig = try ScanControllerTests.Rig(settings: settings)
        var scanSwitch = ScanSwitch(scannerID: testScanner, scanning: true, mode: .survey, revision: 2, changedAt: Date(timeIntervalSince1970: 1_795_000_000))
        rig.switches.yield(scanSwitch)
        await rig.tap.waitFor("scanning 2")
        @Sendable func wifiScans() async throws -> [Int] {
            try await rig.spooled().map(\.measurement).filter { $0.kind == .wifi }.map(\.scan)
        }
        try await rig.clock.step(by: ScanControllerTests.step, whenAsleep: ScanControllerTests.radioLoops) { try await Set(wifiScans()).count >= 2 }

        // Only the settings change: applied, and the session starts again with the new window.
        scanSwitch.settings = ScannerSettings(bleWindowMs: 40)
        scanSwitch.settingsRevision = 5
        rig.switches.yield(scanSwitch)
        await rig.tap.waitFor("idle 2")
        let applied = await rig.tap.first { if case .settingsApplied(5, _, _) = $0 { true } else { false } }
        #expect(applied == .settingsApplied(revision: 5, settings: settings.applied.settings, unapplied: [:]))
        #expect(settings.ble.windowMilliseconds == 40)
        try await rig.clock.step(by: ScanControllerTests.step, whenAsleep: ScanControllerTests.radioLoops) { try await Set(wifiScans()).count >= 4 }
        #expect(rig.tap.timeline == ["scanning 2", "idle 2", "scanning 2"])

        // The same settings revision again (a new watched list, say) changes nothing.
        rig.switches.yield(scanSwitch)
        await rig.finish()
        #expect(rig.tap.timeline == ["scanning 2", "idle 2", "scanning 2", "idle 2"])
        let scans = try await wifiScans()
        #expect(scans == scans.sorted(), "the restarted session goes on counting where it was")
        #expect(Set(scans).sorted() == Array(0..<Set(scans).count), "no scan counted twice or skipped")
    }
}
