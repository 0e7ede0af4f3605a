import Clocks
import Foundation
import Harness
import ScanContract
import Testing
@testable import scannerd

/// The radio map is fetched beside scanning, never in its way.
@Suite("Radio map refresher", .timeLimit(.minutes(3)))
struct RadioMapRefresherTests {
    static let accessPoint = WiFiObservation(bssid: BSSID(rawValue: 0x0200_0000_0100), ssid: "lab", frequencyMHz: 2412)

    /// A Wi-Fi radio alone, each scan taking a second of `clock` and hearing the map's access point.
    struct WiFiOnlyRadio: RadioSource, WiFiScanner {
        let clock: TestClock<Duration>
        let name = "wifi-only"
        var ble: (any BLEScanner)? { nil }
        var wifi: (any WiFiScanner)? { self }

        func prepare(for scanSwitch: ScanSwitch) async {}

        func scanWiFi() async throws -> [RadioReading] {
            try await clock.sleep(for: .seconds(1))
            return [RadioReading(observation: .wifi(RadioMapRefresherTests.accessPoint), rssi: -61, time: Date(timeIntervalSince1970: 1_795_000_000))]
        }
    }

    @Test func aCycleEndedFetchesOnlyOnceTheIntervalHasPassed() {
        var schedule = RadioMapRefresher.Schedule(interval: .seconds(60))
        let requests: [(RadioMapRefresher.Request, Duration)] = [
            (.cycleEnded, .seconds(5)), // the first request fetches
            (.cycleEnded, .seconds(64)),
            (.cycleEnded, .seconds(65)), // the interval has passed
            (.sessionBegan, .seconds(66)), // a session beginning fetches at once
            (.cycleEnded, .seconds(125)), // the interval runs from the last fetch
        ]
        let fetched = requests.map { schedule.fetches($0, at: $1) }
        #expect(fetched == [true, false, true, true, false])
    }

    /// switchd unreachable in the worst way (the radio-map request never returns): a Wi-Fi-only
    /// locate session keeps scanning and positioning with the map on disk, and its heartbeat
    /// never stalls, so the scan watchdog has no reason to restart scannerd.
    @Test func aHangingMapDownloadNeitherStallsNorStopsAWiFiOnlyLocateSession() async throws {
        let directory = try TemporaryDirectory()
        let mapPath = directory.file("radiomap.json")
        let baseURL = URL(string: "http://switchd.invalid:8080")!
        let answering = ScriptedHTTPClient { _, _ in try RadioMapCacheTests.mapResponse(etag: "\"v1\"") }
        await RadioMapCache(path: mapPath, api: SwitchdAPI(baseURL: baseURL, client: answering), logger: quietLogger).refresh()

        let clock = TestClock()
        let hanging = ScriptedHTTPClient { _, _ in try await heldUntilCancelled() }
        let maps = RadioMapRefresher(
            cache: RadioMapCache(path: mapPath, api: SwitchdAPI(baseURL: baseURL, client: hanging), logger: quietLogger),
            interval: .seconds(60), clock: clock
        )
        let refreshing = Task { await maps.run() }
        defer { refreshing.cancel() }
        let tap = EventTap()
        let events = EventLog.disabled(logger: quietLogger, tap: tap.record)
        let (_, positions) = AsyncStream.makeStream(of: NewPosition.self)
        let positioner = Positioner(
            scannerID: testScanner, settings: Positioner.Settings(), maps: maps, positions: positions, events: events, logger: quietLogger
        )
        let heartbeat = ScanHeartbeat(stallLimit: .seconds(60), clock: clock)
        let session = ScanSession(
            scanSwitch: ScanSwitch(
                scannerID: testScanner, scanning: true, mode: .locate, revision: 2, changedAt: Date(timeIntervalSince1970: 1_795_000_000)
            ),
            radio: WiFiOnlyRadio(clock: clock), spool: try makeSpool(in: directory.file("spool"), events: events),
            positioner: positioner, events: events, logger: quietLogger, heartbeat: heartbeat, clock: clock
        )
        let scanning = Task { await session.run() }

        // Past the watchdog's stall limit and the refresh interval, one Wi-Fi scan at a time.
        let cycles = 90
        for _ in 0..<cycles {
            await clock.sleeper() // the next Wi-Fi scan: the cycle before it has ended
            #expect(heartbeat.isAlive())
            await clock.advance(by: .seconds(1))
        }
        await clock.sleeper()
        #expect(heartbeat.isAlive())
        let positioned = tap.events.filter { if case .positioned = $0 { true } else { false } }
        #expect(positioned.count == cycles, "every cycle positioned with the map on disk")
        let requests = await hanging.requests
        #expect(requests.map(\.url.path) == ["/v1/radiomap"], "one download asked for, still hanging; none waited for")
        session.stop()
        let ending = await scanning.value
        guard case .stopped = ending else {
            Issue.record("the session ended by itself: \(ending)")
            return
        }
    }
}
