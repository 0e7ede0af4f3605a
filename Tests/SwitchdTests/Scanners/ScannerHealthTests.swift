import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A scanner's counter report is its health in `GET /v1/scanners` (docs/fleet-health.md); a
/// report that is not well formed is refused naming the field and changes nothing; mixed
/// versions show in the metric and on every scanner; `scannerOffline` and `scannerOnline` are
/// presence events, queued for the webhooks that subscribed to them.
@Suite("Scanner health")
struct ScannerHealthTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aReportShowsAsTheScannersHealth() async throws {
        let clock = SetWallClock(Self.start)
        try await makeApp(try .inMemory(), wallClock: clock.wallClock).test(.router) { client in
            var scanner = try await client.expect(.ok, get: "/v1/scanners/default", as: ScanContract.Scanner.self)
            #expect(scanner.health?.online == false && scanner.health?.lastSeen == nil, "never reported")
            let radios = [RadioHealth(adapter: "hci0", kind: .ble, state: .up, failures: 1, recoveries: 1)]
            let report = ScannerCounters(
                run: UUID(), droppedReadings: 4, spoolDepth: 3, version: "0.1.0", radios: radios, sentAt: Self.start.addingTimeInterval(2)
            )
            #expect(try await client.send(.put, "/v1/scanners/default/counters", json: report).status == .noContent)
            scanner = try await client.expect(.ok, get: "/v1/scanners/default", as: ScanContract.Scanner.self)
            #expect(scanner.health == ScannerHealth(
                online: true, lastSeen: Self.start, version: "0.1.0", mode: "off", radios: radios, spoolDepth: 3, droppedReadings: 4, clockSkew: 2
            ))
            let listed = try await client.expect(.ok, get: "/v1/scanners", as: Page<ScanContract.Scanner>.self).items
            #expect(listed.map(\.health) == [scanner.health])
        }
    }

    @Test func aBadReportIsRefusedNamingTheFieldAndChangesNothing() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let bad: [(ScannerCounters, String)] = [
                (ScannerCounters(run: UUID(), version: "0.1 beta"), "version"),
                (ScannerCounters(run: UUID(), version: String(repeating: "9", count: 65)), "version"),
                (ScannerCounters(run: UUID(), radios: [RadioHealth(adapter: "", kind: .wifi, state: .up, failures: 0, recoveries: 0)]), "radios[0].adapter"),
                (ScannerCounters(run: UUID(), radios: [RadioHealth(adapter: "wlan0", kind: .wifi, state: .up, failures: -1, recoveries: 0)]), "radios[0].failures"),
                (ScannerCounters(run: UUID(), radios: Array(repeating: RadioHealth(adapter: "hci0", kind: .ble, state: .up, failures: 0, recoveries: 0), count: 9)), "radios"),
            ]
            for (report, field) in bad {
                let response = try await client.send(.put, "/v1/scanners/default/counters", json: report)
                #expect(response.status == .unprocessableContent)
                #expect(try errorBody(response).field == field)
            }
            // Left out is unknown (an older scannerd); null is not a value.
            for field in ["version", "radios", "sentAt"] {
                let response = try await client.send(
                    .put, "/v1/scanners/default/counters",
                    text: #"{"run":"\#(UUID().uuidString)","advertisements":0,"wifiScans":0,"parseErrors":0,"radioRecoveries":0,"uploadRetries":0,"spoolDepth":0,"\#(field)":null}"#
                )
                #expect([.badRequest, .unprocessableContent].contains(response.status), "\(field): null")
            }
            let scanner = try await client.expect(.ok, get: "/v1/scanners/default", as: ScanContract.Scanner.self)
            #expect(scanner.health?.online == false && scanner.health?.version == nil, "nothing refused is kept")
        }
    }

    @Test func mixedVersionsShowInTheMetricAndOnEveryScanner() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("pi-old")), as: ScanContract.Scanner.self)
            _ = try await client.send(.put, "/v1/scanners/default/counters", json: ScannerCounters(run: UUID(), version: "0.2.0"))
            #expect(try await client.scrape()["switchd_scanner_versions"] == 1)
            _ = try await client.send(.put, "/v1/scanners/pi-old/counters", json: ScannerCounters(run: UUID(), version: "0.1.0"))
            #expect(try await client.scrape()["switchd_scanner_versions"] == 2)
            let scanners = try await client.expect(.ok, get: "/v1/scanners", as: Page<ScanContract.Scanner>.self).items
            #expect(scanners.map { $0.health?.versionMismatch } == [true, true])
            _ = try await client.send(.put, "/v1/scanners/pi-old/counters", json: ScannerCounters(run: UUID(), version: "0.2.0"))
            #expect(try await client.scrape()["switchd_scanner_versions"] == 1)
            #expect(try await client.expect(.ok, get: "/v1/scanners/pi-old", as: ScanContract.Scanner.self).health?.versionMismatch == false)
        }
    }

    @Test func offlineAndOnlineArePresenceEventsForWebhooks() async throws {
        let clock = SetWallClock(Self.start)
        let database = try AppDatabase.inMemory()
        try await makeApp(database, wallClock: clock.wallClock).test(.router) { client in
            let hook = try await client.expect(
                .created, .post, "/v1/webhooks",
                json: NewWebhook(url: "https://hooks.example.org/fleet", events: [.scannerOffline, .scannerOnline]), as: CreatedWebhook.self
            )
            _ = try await client.send(.put, "/v1/scanners/default/counters", json: ScannerCounters(run: UUID()))
            // What ScannerOfflineService does once the report is 60 s old.
            let offline = try await database.markSilentScannersOffline(silence: .seconds(60), at: Self.start.addingTimeInterval(61))
            #expect(offline.map(\.kind) == [.scannerOffline])
            #expect(try await client.expect(.ok, get: "/v1/scanners/default", as: ScanContract.Scanner.self).health?.online == false)
            clock.set(Self.start.addingTimeInterval(120))
            _ = try await client.send(.put, "/v1/scanners/default/counters", json: ScannerCounters(run: UUID()))

            let events = try await client.expect(.ok, get: "/v1/events?kind=scannerOnline", as: Page<PresenceEvent>.self).items
            #expect(events.map(\.time) == [Self.start.addingTimeInterval(120)] && events.first?.type == "presence.scannerOnline")
            let all = try await client.expect(.ok, get: "/v1/events?scannerID=default", as: Page<PresenceEvent>.self).items
            #expect(all.map(\.kind) == [.scannerOffline, .scannerOnline])
            #expect(all.first?.time == Self.start.addingTimeInterval(60) && all.allSatisfy { $0.tagID == nil && $0.place == nil })
            let deliveries = try await client.expect(.ok, get: "/v1/webhooks/\(hook.webhook.id)/deliveries", as: Page<WebhookDelivery>.self).items
            #expect(deliveries.map(\.eventID) == all.map(\.id) && deliveries.map(\.kind) == [.scannerOffline, .scannerOnline])
        }
    }
}
