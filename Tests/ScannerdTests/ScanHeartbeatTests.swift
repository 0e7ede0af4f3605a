import Testing
@testable import scannerd

@Suite struct ScanHeartbeatTests {
    @Test func idleIsAliveAndAStalledSessionIsNot() {
        let heartbeat = ScanHeartbeat(stallLimit: .seconds(60))
        let later = ContinuousClock.now + .seconds(120)
        #expect(heartbeat.isAlive(at: later), "no session: nothing to stall")
        heartbeat.sessionStarted()
        #expect(heartbeat.isAlive())
        #expect(!heartbeat.isAlive(at: later), "a session that has not beaten for longer than the limit")
        heartbeat.sessionEnded()
        #expect(heartbeat.isAlive(at: later))
    }

    @Test func aBeatKeepsTheSessionAlive() async throws {
        let heartbeat = ScanHeartbeat(stallLimit: .milliseconds(200))
        heartbeat.sessionStarted()
        try await Task.sleep(for: .milliseconds(250))
        #expect(!heartbeat.isAlive())
        heartbeat.beat()
        #expect(heartbeat.isAlive())
    }
}
