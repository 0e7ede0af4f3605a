import Glibc

/// CPU time consumed so far, read from the kernel's per-process and per-thread clocks: for costs
/// that wall time on a shared machine overstates.
public enum CPUTime {
    /// User and system time of every thread of this process.
    public static var process: Duration { read(CLOCK_PROCESS_CPUTIME_ID) }

    /// User and system time of the calling thread.
    public static var thread: Duration { read(CLOCK_THREAD_CPUTIME_ID) }

    /// Runs `work` and returns its result with the CPU seconds the calling thread spent on it.
    public static func onThisThread<T>(_ work: () -> T) -> (T, seconds: Double) {
        let started = thread
        let result = work()
        return (result, (thread - started) / .seconds(1))
    }

    /// These clocks always exist on Linux, so `clock_gettime` cannot fail for them.
    private static func read(_ clock: clockid_t) -> Duration {
        var time = timespec()
        clock_gettime(clock, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
