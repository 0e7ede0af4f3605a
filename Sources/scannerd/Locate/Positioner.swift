#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Positioning
import ScanContract
import Synchronization

/// Positions a locate session on the device: BLE advertisements are kept for a short window,
/// and every completed scan cycle (its Wi-Fi scan plus that window) goes through the ``Locator``
/// built from the radio map. Positions go to the ``PositionPoster``; they are never lost to a
/// slow switchd, only dropped oldest-first when switchd is away for long.
///
/// The map is the copy the ``RadioMapRefresher``'s cache holds at each cycle: a cycle never
/// waits for a download, so an unreachable switchd cannot stall scanning.
actor Positioner {
    struct Settings: Sendable {
        /// How far back BLE advertisements count towards a position.
        var bleWindow: Duration = .seconds(2)
        /// How often, while locating, switchd is asked for a newer radio map.
        var mapRefreshInterval: Duration = .seconds(60)
    }

    private let scannerID: ScannerID
    private let settings: Settings
    /// switchd's settings, whose locate window overrides ``Settings/bleWindow``; nil: none.
    private let live: LiveSettings?
    private let maps: RadioMapRefresher
    private let positions: AsyncStream<NewPosition>.Continuation
    private let events: EventLog
    private let logger: Logger
    /// Filled by ``heard(_:)`` from the spool's thread, with every advertisement, without a hop
    /// onto this actor.
    private let window = Mutex(BLEWindow())
    private var locator: Locator?
    private var locatorETag: String?
    private var saidNoMap = false

    init(
        scannerID: ScannerID, settings: Settings, maps: RadioMapRefresher,
        positions: AsyncStream<NewPosition>.Continuation, events: EventLog, logger: Logger, live: LiveSettings? = nil
    ) {
        self.scannerID = scannerID
        self.settings = settings
        self.live = live
        self.maps = maps
        self.positions = positions
        self.events = events
        self.logger = logger
    }

    /// A locate session starts: a map refresh is asked for (not waited for) and the filters start
    /// afresh (a new session may be somewhere else entirely).
    func begin() async {
        window.withLock { $0 = BLEWindow() }
        locator?.reset()
        maps.request(.sessionBegan)
        await useLatestMap()
    }

    /// Keeps a BLE advertisement for the window; Wi-Fi readings come with their cycle.
    nonisolated func heard(_ reading: RadioReading) {
        guard case .ble(let ble) = reading.observation else { return }
        window.withLock { $0.add(.beacon(ble.beacon), rssi: reading.rssi, advertisedPower: ble.txPower, at: reading.time) }
    }

    /// How many advertisements the BLE window holds now.
    nonisolated var advertisementsKept: Int { window.withLock { $0.count } }

    /// Positions one completed scan cycle and hands the position on; records `positioned`.
    func cycleEnded(wifi readings: [RadioReading], revision: Int, at now: Date) async {
        maps.request(.cycleEnded)
        // Trimmed every cycle, positioned or not: without a map the window would otherwise keep
        // every advertisement heard for as long as the session lasts.
        let cutoff = now.addingTimeInterval(-(live?.locateWindow ?? settings.bleWindow).seconds)
        window.withLock { $0.drop(before: cutoff) }
        await useLatestMap()
        guard var locator, locator.canLocate else {
            if !saidNoMap {
                logger.warning("no radio map yet: positions start once switchd has given one")
                saidNoMap = true
            }
            return
        }
        let (samples, advertisedPower) = window.withLock { window in
            window.drop(before: cutoff)
            return (window.samples, window.advertisedPower)
        }
        var wifi: [Emitter: Double] = [:]
        for reading in readings {
            if case .wifi(let observation) = reading.observation {
                wifi[.accessPoint(observation.bssid)] = Double(reading.rssi)
            }
        }
        let located = locator.locate(wifi: wifi, ble: samples, advertisedPower: advertisedPower, at: now)
        self.locator = locator
        guard let located else { return }
        let position = NewPosition(
            scannerID: scannerID, time: now, building: located.building, floor: located.floorID,
            x: located.x, y: located.y, roomID: located.roomID, nearestLocationID: located.nearestLocationID,
            accuracyMetres: located.accuracyMetres, method: located.method, beacons: located.beacons
        )
        events.record(.positioned(revision: revision, position: position))
        positions.yield(position)
    }

    /// Rebuilds the locator when the cache holds a map other than the one it was built from.
    private func useLatestMap() async {
        guard let copy = await maps.cache.copy, copy.etag != locatorETag else { return }
        let started = ContinuousClock.now
        locator = Locator(map: copy.map)
        locatorETag = copy.etag
        saidNoMap = false
        logger.info("locator built from the radio map", metadata: [
            "etag": "\(copy.etag)", "locations": "\(copy.map.locations.count)", "beacons": "\(copy.map.beacons.count)",
            "ms": "\((ContinuousClock.now - started) / .milliseconds(1))",
        ])
    }
}

/// The BLE advertisements of the last few seconds, per beacon.
struct BLEWindow {
    private var heard: [(time: Date, emitter: Emitter, rssi: Int)] = []
    /// The measured power each beacon last advertised.
    private(set) var advertisedPower: [Emitter: Int] = [:]

    mutating func add(_ emitter: Emitter, rssi: Int, advertisedPower power: Int, at time: Date) {
        heard.append((time, emitter, rssi))
        advertisedPower[emitter] = power
    }

    mutating func drop(before cutoff: Date) {
        heard.removeAll { $0.time < cutoff }
        let still = Set(heard.map(\.emitter))
        advertisedPower = advertisedPower.filter { still.contains($0.key) }
    }

    var count: Int { heard.count }

    /// RSSI samples per beacon, in the order heard.
    var samples: [Emitter: [Double]] {
        heard.reduce(into: [:]) { $0[$1.emitter, default: []].append(Double($1.rssi)) }
    }
}
