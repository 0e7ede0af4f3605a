import Foundation

/// CPU time of the calling thread, for costs that wall time on a shared machine overstates.
enum ThreadCPUTime {
    /// User and system time the calling thread has used so far (`clock_gettime` cannot fail for
    /// this clock on Linux).
    static var now: Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Runs `work` and returns its result with the thread CPU seconds it took.
    static func measure<T>(_ work: () -> T) -> (T, seconds: Double) {
        let started = now
        let result = work()
        return (result, (now - started) / .seconds(1))
    }
}
