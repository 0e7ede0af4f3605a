import Glibc

extension Syscall {
    /// Blocks the calling thread for `duration` (`nanosleep`, resumed after a signal with the
    /// time left). For threads that pace themselves; never called on Swift's cooperative pool.
    static func sleep(for duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1, errno == EINTR {
            request = remaining
        }
    }
}
