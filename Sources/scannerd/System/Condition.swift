import Glibc

/// A lock with a condition variable (pthreads), for a thread that waits for a flag with a time
/// limit. Its waits run on `CLOCK_MONOTONIC`, so setting the system's clock neither shortens nor
/// stretches them.
final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes every thread waiting in ``wait(until:)``.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// With the lock held: releases it, waits for a ``broadcast()`` or `deadline`, and takes it
    /// again. Returns false when the deadline passed; true when woken (which may be spurious:
    /// check the condition again).
    func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = remaining.components
        let nanoseconds = now.tv_nsec + Int(attoseconds / 1_000_000_000)
        var target = timespec(tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        return pthread_cond_timedwait(condition, mutex, &target) != ETIMEDOUT
    }
}
