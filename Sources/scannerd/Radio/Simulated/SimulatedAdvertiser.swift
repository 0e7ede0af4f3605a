import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One BLE stream's receiver: it wakes when advertisements are due, hears them through the
/// simulated air, and hands them out one at a time.
///
/// Like a Bluetooth controller that queues advertising reports and delivers several in one
/// event, it wakes at most once per ``deliveryInterval`` (each reading keeps the time its
/// advertisement was sent), so hundreds of advertisements a second cost tens of wake-ups.
/// It waits on the air's clock and stamps readings from the air's wall clock.
actor SimulatedAdvertiser {
    private let air: SimulatedAir
    private var schedule: AdvertisingSchedule
    private var heard: [RadioReading] = []
    private var lastWake: Duration
    private var wallClock: WallClockAnchor

    static let deliveryInterval: Duration = .milliseconds(10)

    init(air: SimulatedAir, rates: [Double]) {
        self.air = air
        let start = air.time.now
        let anchor = WallClockAnchor(elapsed: start, date: air.wallClock())
        let first = rates.indices.map { index in air.firstAdvertisement(of: index, after: anchor.date(at: start)).map { anchor.elapsed(at: $0) } }
        schedule = AdvertisingSchedule(rates: rates, start: start, first: first)
        lastWake = start - Self.deliveryInterval
        wallClock = anchor
    }

    /// The next advertisement heard above the receiver's sensitivity, waiting for it as long as
    /// it takes; nil when no beacon advertises. Throws `CancellationError` when cancelled.
    func next() async throws -> RadioReading? {
        while heard.isEmpty {
            guard let earliest = schedule.earliest else { return nil }
            try await air.time.sleep(until: max(earliest, lastWake + Self.deliveryInterval))
            let now = air.time.now
            lastWake = now
            wallClock.follow(wallClock: air.wallClock(), at: now)
            let due = schedule.takeDue(asOf: now)
            heard = await air.advertisements(due.map { [wallClock] in ($0.beacon, wallClock.date(at: $0.sent)) })
            heard.reverse() // handed out from the end
        }
        return heard.popLast()
    }
}
