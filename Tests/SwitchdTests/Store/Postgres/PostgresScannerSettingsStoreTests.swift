import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Scanner settings with the same assertions on SQLite and on a real PostgreSQL server: merged
/// key by key under one revision sequence, a refused change leaves everything as it was, and the
/// scanner's report of what it applied is kept with its health.
@Suite("Scanner settings on both databases", postgresInstalled, .postgresServer, .timeLimit(.minutes(1)))
struct PostgresScannerSettingsStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func settingsAreMergedRevisedAndReportedBack(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let pi = try ScannerID("pi-settings")
            _ = try await database.createScanner(NewScanner(id: pi), at: Date())
            _ = try await database.updateFleetSettings(ScannerSettings(bleIntervalMs: 200, logLevel: "notice"))
            _ = try await database.updateScanner(pi, with: ScannerPatch(name: "Lobby", settings: ScannerSettings(bleWindowMs: 150)))
            await #expect(throws: StoreError.self) {
                try await database.updateFleetSettings(ScannerSettings(bleIntervalMs: 100))
            }
            let requested = try await database.requestedSettings(of: pi)
            #expect(requested.revision == 2)
            #expect(requested.settings == ScannerSettings(bleIntervalMs: 200, bleWindowMs: 150, logLevel: "notice"))
            #expect(try await database.scanner(pi).name == "Lobby")

            var report = ScannerCounters(run: UUID(), version: "0.2.0")
            report.settingsRevision = 2
            report.unappliedSettings = ["logLevel": "why not"]
            report.appliedSettings = ScannerSettings(bleScan: "passive", bleIntervalMs: 200, bleWindowMs: 150)
            _ = try await database.recordScannerReport(report, of: pi, at: Date())
            let health = try #require(try await database.scannerHealth(of: [pi])[pi])
            #expect(health.settings == ScannerSettings(bleWindowMs: 150) && health.settingsRevision == 2 && health.appliedRevision == 2)
            #expect(health.unappliedSettings == ["logLevel": "why not"] && health.appliedSettings == report.appliedSettings)
        }
    }
}
