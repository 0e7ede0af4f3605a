import Clocks
import Testing
@testable import scannerd

@Suite struct ScanHeartbeatTests {
    @Test func idleIsAliveAndAStalledSessionIsNot() async {
        let clock = TestClock()
        let heartbeat = ScanHeartbeat(stallLimit: .seconds(60), clock: clock)
        await clock.advance(by: .seconds(120))
        #expect(heartbeat.isAlive(), "no session: nothing to stall")
        heartbeat.sessionStarted()
        await clock.advance(by: .seconds(59))
        #expect(heartbeat.isAlive())
        await clock.advance(by: .seconds(1))
        #expect(!heartbeat.isAlive(), "a session that has not beaten for the limit")
        heartbeat.sessionEnded()
        #expect(heartbeat.isAlive())
    }

    @Test func aBeatKeepsTheSessionAlive() async {
        let clock = TestClock()
        let heartbeat = ScanHeartbeat(stallLimit: .milliseconds(200), clock: clock)
        heartbeat.sessionStarted()
        await clock.advance(by: .milliseconds(250))
        #expect(!heartbeat.isAlive())
        heartbeat.beat()
        #expect(heartbeat.isAlive())
    }
}
