import Glibc

extension Syscall {
    /// Waits with `poll()` until `descriptor` can be read or `timeout` passes; true when it can.
    /// An error or hang-up on the descriptor counts as readable, so the next read reports it.
    static func waitReadable(_ descriptor: CInt, timeout: Duration) throws(SystemError) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = CInt(min(max(timeout / .milliseconds(1), 0), Double(CInt.max)).rounded(.up))
        return try retryingInterrupts("poll") { poll(&entry, 1, milliseconds) } > 0
    }

    /// CLOCK_BOOTTIME in nanoseconds: the clock nl80211 stamps scan results with.
    static func boottimeNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
