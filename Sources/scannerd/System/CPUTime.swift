import Glibc

/// CPU time consumed so far, read from the kernel's per-process and per-thread clocks.
enum CPUTime {
    /// User and system time of every thread of this process.
    static var process: Duration { read(CLOCK_PROCESS_CPUTIME_ID) }

    /// User and system time of the calling thread.
    static var thread: Duration { read(CLOCK_THREAD_CPUTIME_ID) }

    /// These clocks always exist on Linux, so `clock_gettime` cannot fail for them.
    private static func read(_ clock: clockid_t) -> Duration {
        var time = timespec()
        clock_gettime(clock, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
