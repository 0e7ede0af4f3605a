import DaemonSupport
import Glibc
import Harness
import Testing

/// A notify socket nobody reads fills after a few datagrams; the notifier must then fail at once
/// instead of holding a thread of the concurrency pool until someone reads.
@Suite(.timeLimit(.minutes(1))) struct FullQueueTests {
    @Test func aFullQueueIsAnErrorNotAWait() throws {
        let stuck = try NotifySocketReceiver(abstract: true, reads: false)
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": stuck.notifySocket])
        var failure: SystemdNotifyError?
        for _ in 0..<10_000 where failure == nil {
            do {
                try notifier.notify(.watchdog)
            } catch {
                failure = error as? SystemdNotifyError
            }
        }
        #expect(failure == .system(call: "sendto", errno: EAGAIN))
    }
}
