import Foundation
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Scanner health with the same assertions on SQLite and on a real PostgreSQL server: a report
/// is kept as the scanner's health, the offline check (``ScannerOfflineService``, its time on a
/// clock the test moves) marks a silent scanner offline with one `scannerOffline` event, and the
/// next report brings it back with one `scannerOnline`.
@Suite("Scanner health on both databases", postgresInstalled, .postgresServer, .timeLimit(.minutes(1)))
struct PostgresScannerHealthStoreTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static func report(version: String? = "0.1.0", spoolDepth: Int = 2, sentAt: Date? = nil) -> ScannerCounters {
        ScannerCounters(
            run: UUID(), advertisements: 5, droppedReadings: 3, spoolDepth: spoolDepth, version: version,
            radios: [RadioHealth(adapter: "hci0", kind: .ble, state: .down, failures: 2, recoveries: 1)], sentAt: sentAt
        )
    }

    @Test(arguments: StoreBackend.allCases)
    func aReportIsKeptAsTheScannersHealth(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let pi = try ScannerID("pi-health")
            _ = try await database.createScanner(NewScanner(id: pi), at: Self.start)
            var health = try #require(try await database.scannerHealth(of: [pi])[pi])
            #expect(health == ScannerHealth(online: false, mode: "off"), "never reported: offline, nothing else known")

            let first = try await database.recordScannerReport(Self.report(sentAt: Self.start.addingTimeInterval(-1.5)), of: pi, at: Self.start)
            #expect(first == nil, "a first report raises no event")
            health = try #require(try await database.scannerHealth(of: [pi])[pi])
            #expect(health.online == true && health.lastSeen == Self.start && health.version == "0.1.0")
            #expect(health.radios == [RadioHealth(adapter: "hci0", kind: .ble, state: .down, failures: 2, recoveries: 1)])
            #expect(health.spoolDepth == 2 && health.droppedReadings == 3 && health.clockSkew == -1.5 && health.versionMismatch == false)

            // Another scanner on another version: both are flagged.
            _ = try await database.recordScannerReport(Self.report(version: "0.2.0"), of: .default, at: Self.start)
            #expect(try await database.scannerVersionCount() == 2)
            #expect(try await database.scannerHealth(of: [pi])[pi]?.versionMismatch == true)
            // An old scannerd's report (no version, radios or time) leaves them unknown.
            _ = try await database.recordScannerReport(ScannerCounters(run: UUID()), of: .default, at: Self.start)
            let old = try #require(try await database.scannerHealth(of: [.default])[.default])
            #expect(old.version == nil && old.radios == nil && old.clockSkew == nil && old.online == true)
            #expect(try await database.scannerVersionCount() == 1)

            await #expect(throws: StoreError.self) {
                try await database.recordScannerReport(Self.report(), of: try ScannerID("nobody"), at: Self.start)
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aSilentScannerGoesOfflineOnceAndComesBackWithItsNextReport(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let clock = WatchedClock()
            let now = clock.wallClock(from: Self.start)
            let feeds = Feeds()
            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            let service = ScannerOfflineService(database: database, feeds: feeds, silence: .seconds(60), clock: clock, now: now, logger: quiet)
            _ = try await database.recordScannerReport(Self.report(), of: .default, at: Self.start)
            let running = Task { try await service.run() }
            defer { running.cancel() }

            // The check at start finds the report fresh and sleeps until it is 60 s old.
            await clock.sleepers(1)
            #expect(try await Self.events(in: database).isEmpty)
            await clock.advance(by: .seconds(30))
            // A report 30 s in pushes the silence's end on: nothing at 60 s.
            _ = try await database.recordScannerReport(Self.report(), of: .default, at: now())
            await feeds.scannerReports.bump()
            await clock.advance(by: .seconds(31))
            await clock.sleepers(1)
            #expect(try await Self.events(in: database).isEmpty, "heard 31 s ago")
            await clock.advance(by: .seconds(30))
            await feeds.events.waitForRows(after: 0)
            let offline = try await Self.events(in: database)
            #expect(offline.map(\.kind) == [.scannerOffline] && offline.map(\.scannerID) == [.default])
            #expect(offline.first?.time == Self.start.addingTimeInterval(90), "the last report's time plus the silence")
            #expect(try await database.scannerHealth(of: [.default])[.default]?.online == false)

            // A longer silence raises no second event.
            #expect(try await database.markSilentScannersOffline(silence: .seconds(60), at: now().addingTimeInterval(3600)).isEmpty)
            #expect(try await Self.events(in: database).count == 1)

            let back = try #require(try await database.recordScannerReport(Self.report(), of: .default, at: now()))
            #expect(back.kind == .scannerOnline && back.scannerID == .default && back.time == now())
            #expect(try await Self.events(in: database).map(\.kind) == [.scannerOffline, .scannerOnline])
            #expect(try await database.recordScannerReport(Self.report(), of: .default, at: now()) == nil, "already online")
            running.cancel()
            try await running.value
        }
    }

    static func events(in database: AppDatabase) async throws -> [PresenceEvent] {
        try await database.presenceEvents(matching: PresenceEventFilter(), after: 0, limit: 100).items
    }
}
