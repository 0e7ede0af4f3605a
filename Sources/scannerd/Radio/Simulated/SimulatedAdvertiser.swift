import Foundation

/// One BLE stream's receiver: it wakes when advertisements are due, hears them through the
/// simulated air, and hands them out one at a time.
///
/// Like a Bluetooth controller that queues advertising reports and delivers several in one
/// event, it wakes at most once per ``deliveryInterval`` (each reading keeps the time its
/// advertisement was sent), so hundreds of advertisements a second cost tens of wake-ups.
actor SimulatedAdvertiser {
    private let air: SimulatedAir
    private var schedule: AdvertisingSchedule
    private var heard: [RadioReading] = []
    private var lastWake: ContinuousClock.Instant
    private var wallClock = WallClockAnchor()

    static let deliveryInterval: Duration = .milliseconds(10)

    init(air: SimulatedAir, rates: [Double], start: ContinuousClock.Instant = .now) {
        self.air = air
        schedule = AdvertisingSchedule(rates: rates, start: start)
        lastWake = start - Self.deliveryInterval
    }

    /// The next advertisement heard above the receiver's sensitivity, waiting for it as long as
    /// it takes; nil when no beacon advertises. Throws `CancellationError` when cancelled.
    func next() async throws -> RadioReading? {
        while heard.isEmpty {
            guard let earliest = schedule.earliest else { return nil }
            let wake = max(earliest, lastWake + Self.deliveryInterval)
            try await Task.sleep(until: wake, tolerance: .zero, clock: .continuous)
            let now = ContinuousClock.now
            lastWake = now
            wallClock.follow(wallClock: .now, at: now)
            let due = schedule.takeDue(asOf: now)
            heard = await air.advertisements(due.map { [wallClock] in ($0.beacon, wallClock.date(at: $0.sent)) })
            heard.reverse() // handed out from the end
        }
        return heard.popLast()
    }
}
