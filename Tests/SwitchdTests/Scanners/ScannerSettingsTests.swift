import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Scanner settings from switchd (docs/scanner-settings.md): `PATCH /v1/scanners/{id}` and `*`
/// store them under a revision on real SQLite, strictly validated (422 naming the problem,
/// nothing changed); the switch answer carries them merged key by key; a change ends a
/// long-poll that holds the old settings revision; the scanner's report shows what it applied.
@Suite("Scanner settings")
struct ScannerSettingsTests {
    static let pi = try! ScannerID("pi-hall")

    @Test func settingsMergeKeyByKeyAndEveryChangeRaisesTheRevision() async throws {
        try await withTemporaryDatabase { database, _ in
            _ = try await database.createScanner(NewScanner(id: Self.pi), at: Date())
            #expect(try await database.requestedSettings(of: Self.pi).revision == 0)
            #expect(try await database.requestedSettings(of: Self.pi).settings == nil, "none set: the scanner's TOML holds")

            let fleet = try await database.updateFleetSettings(ScannerSettings(bleScan: "active", bleIntervalMs: 200, bleWindowMs: 100, logLevel: "info"))
            #expect(fleet.changed && fleet.fleet.settingsRevision == 1)
            let own = try await database.updateScanner(Self.pi, with: ScannerPatch(name: "Hall", settings: ScannerSettings(bleWindowMs: 150, wifiScanPeriodS: 10)))
            #expect(own.settingsChanged && own.scanner.name == "Hall")
            var requested = try await database.requestedSettings(of: Self.pi)
            #expect(requested.revision == 2)
            #expect(requested.settings == ScannerSettings(bleScan: "active", bleIntervalMs: 200, bleWindowMs: 150, wifiScanPeriodS: 10, logLevel: "info"))
            #expect(try await database.requestedSettings(of: .default).settings == ScannerSettings(bleScan: "active", bleIntervalMs: 200, bleWindowMs: 100, logLevel: "info"))

            // The same settings again change nothing; the fleet's next change is above both.
            #expect(try await database.updateScanner(Self.pi, with: ScannerPatch(settings: ScannerSettings(bleWindowMs: 150, wifiScanPeriodS: 10))).settingsChanged == false)
            #expect(try await database.updateFleetSettings(ScannerSettings(bleIntervalMs: 300)).fleet.settingsRevision == 3)
            requested = try await database.requestedSettings(of: Self.pi)
            #expect(requested.revision == 3 && requested.settings == ScannerSettings(bleIntervalMs: 300, bleWindowMs: 150, wifiScanPeriodS: 10))

            // Deleted and registered again: its own settings are gone, under a revision it never saw.
            _ = try await database.deleteScanner(Self.pi, at: Date(), mqtt: nil)
            _ = try await database.createScanner(NewScanner(id: Self.pi), at: Date())
            requested = try await database.requestedSettings(of: Self.pi)
            #expect(requested.revision == 4 && requested.settings == ScannerSettings(bleIntervalMs: 300))
        }
    }

    @Test func badSettingsAreRefusedNamingTheProblemAndChangeNothing() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                _ = try await client.expect(.ok, .patch, "/v1/scanners/*", json: ScannerPatch(settings: ScannerSettings(bleIntervalMs: 100)), as: FleetSettings.self)
                let bad: [(String, String, String)] = [
                    ("default", #"{"settings":{"bleWindow":50}}"#, "settings.bleWindow"),
                    ("default", #"{"settings":{"bleScan":"loud"}}"#, "settings.bleScan"),
                    ("default", #"{"settings":{"bleIntervalMs":2}}"#, "settings.bleIntervalMs"),
                    ("default", #"{"settings":{"bleWindowMs":10240.5}}"#, "settings.bleWindowMs"),
                    ("default", #"{"settings":{"bleIntervalMs":50,"bleWindowMs":60}}"#, "settings.bleWindowMs"),
                    // In range alone, but more than the fleet's interval of 100 ms.
                    ("default", #"{"settings":{"bleWindowMs":150}}"#, "settings.bleWindowMs"),
                    ("default", #"{"settings":{"wifiScanPeriodS":-1}}"#, "settings.wifiScanPeriodS"),
                    ("default", #"{"settings":{"locateWindowMs":99}}"#, "settings.locateWindowMs"),
                    ("default", #"{"settings":{"listenWindowS":61}}"#, "settings.listenWindowS"),
                    ("default", #"{"settings":{"logLevel":"loud"}}"#, "settings.logLevel"),
                    ("default", #"{"name":"  "}"#, "name"),
                    ("default", #"{"nmae":"Hall"}"#, "nmae"),
                    ("*", #"{"name":"fleet"}"#, "name"),
                    ("*", #"{"settings":{"bleIntervalMs":50,"bleWindowMs":60}}"#, "settings.bleWindowMs"),
                ]
                for (scanner, body, field) in bad {
                    let response = try await client.send(.patch, "/v1/scanners/\(scanner)", text: body)
                    #expect(response.status == .unprocessableContent, "\(body)")
                    #expect(try errorBody(response).field == field, "\(body)")
                }
                // The fleet may not lower its interval under a scanner's own window.
                _ = try await client.expect(.ok, .patch, "/v1/scanners/default", json: ScannerPatch(settings: ScannerSettings(bleWindowMs: 80)), as: ScanContract.Scanner.self)
                let under = try await client.send(.patch, "/v1/scanners/*", json: ScannerPatch(settings: ScannerSettings(bleIntervalMs: 50)))
                #expect(under.status == .unprocessableContent)
                #expect(try errorBody(under).message.contains("default"))
                let wrongType = try await client.send(.patch, "/v1/scanners/default", text: #"{"settings":{"listen":"yes"}}"#)
                #expect([.badRequest, .unprocessableContent].contains(wrongType.status))

                let fleet = try await client.expect(.ok, get: "/v1/scanners/*", as: FleetSettings.self)
                #expect(fleet == FleetSettings(settings: ScannerSettings(bleIntervalMs: 100), settingsRevision: 1))
                let scanner = try await client.expect(.ok, get: "/v1/scanners/default", as: ScanContract.Scanner.self)
                #expect(scanner.name == "default" && scanner.health?.settings == ScannerSettings(bleWindowMs: 80))
                #expect(scanner.health?.settingsRevision == 2)
                #expect(try await client.send(.patch, "/v1/scanners/nobody", json: ScannerPatch(name: "x")).status == .notFound)
            }
        }
    }

    @Test func theSwitchAnswerCarriesTheSettingsAndAChangeEndsALongPoll() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.live) { client in
                let first = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
                #expect(first.settings == nil && first.settingsRevision == nil)
                // Held: the switch is at its revision and the scanner holds no settings (0).
                let revision = first.revision
                async let held = client.expect(.ok, get: "/v1/scanners/default/switch?revision=\(revision)&settings=0&wait=60", as: ScanSwitch.self)
                let patched = try await client.expect(
                    .ok, .patch, "/v1/scanners/default", json: ScannerPatch(settings: ScannerSettings(bleWindowMs: 40)), as: ScanContract.Scanner.self
                )
                #expect(patched.health?.settingsRevision == 1)
                let answer = try await held
                #expect(answer.settings == ScannerSettings(bleWindowMs: 40) && answer.settingsRevision == 1 && answer.revision == 1)

                // The scanner reports what it applied; GET shows it beside what was asked.
                let report = ScannerCounters(run: UUID(), version: "0.2.0")
                var withSettings = report
                withSettings.settingsRevision = 1
                withSettings.unappliedSettings = ["futureKey": "not a setting scannerd 0.1.0 knows"]
                withSettings.appliedSettings = ScannerSettings(bleScan: "passive", bleIntervalMs: 100, bleWindowMs: 40)
                #expect(try await client.send(.put, "/v1/scanners/default/counters", json: withSettings).status == .noContent)
                let scanner = try await client.expect(.ok, get: "/v1/scanners/default", as: ScanContract.Scanner.self)
                #expect(scanner.health?.appliedRevision == 1 && scanner.health?.settingsRevision == 1)
                #expect(scanner.health?.unappliedSettings == ["futureKey": "not a setting scannerd 0.1.0 knows"])
                #expect(scanner.health?.appliedSettings?.bleWindowMs == 40)
            }
        }
    }
}
