import Testing
@testable import scannerd

/// When the simulated transmitters advertise, read on the receiver's clock.
struct AdvertisingScheduleTests {
    @Test func aTransmitterGivenItsFirstTimeAdvertisesOnItsGrid() {
        var schedule = AdvertisingSchedule(rates: [10, 5], start: .zero, first: [nil, .milliseconds(100)])
        let sent = schedule.takeDue(asOf: .milliseconds(550))
        #expect(sent.filter { $0.beacon == 1 }.map(\.sent) == [100, 300, 500].map { .milliseconds($0) })
        #expect(sent.filter { $0.beacon == 0 }.map(\.sent) == [0, 100, 200, 300, 400, 500].map { .milliseconds($0) }, "no first time: the spread phase")
    }

    @Test func aReceiverFarBehindSkipsWholeIntervalsAndKeepsThePhase() {
        var schedule = AdvertisingSchedule(rates: [5], start: .zero, first: [.milliseconds(100)])
        #expect(schedule.takeDue(asOf: .milliseconds(100)).map(\.sent) == [.milliseconds(100)])
        // Stopped for seconds: what it missed beyond the last second is skipped, on the 200 ms grid.
        let late = schedule.takeDue(asOf: .milliseconds(5_050))
        #expect(late.map(\.sent) == [4_100, 4_300, 4_500, 4_700, 4_900].map { .milliseconds($0) })
    }
}
