import Dispatch

/// The thread the spool runs on: a serial dispatch queue of its own, as the ``Spool`` actor's
/// executor. Appending `write()`s and sealing `fsync()`s, and on an SD card an `fsync()` can take
/// a second; on this queue that blocks only the spool's own thread (libdispatch gives a blocked
/// queue its own), never one of the few threads of Swift's cooperative pool that the radios, the
/// uploader and the watchdog share.
///
/// A serial queue rather than NIO's thread pool: the actor already serialises the spool's work,
/// and scannerd needs no NIO for anything else.
final class SpoolExecutor: SerialExecutor {
    let queue: DispatchQueue
    /// Set on ``queue``: true when the code reading it runs there.
    static let onSpoolQueue = DispatchSpecificKey<Bool>()

    init() {
        queue = DispatchQueue(label: "scannerd.spool", qos: .userInitiated)
        queue.setSpecific(key: Self.onSpoolQueue, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Whether the caller runs on a spool's queue.
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: onSpoolQueue) ?? false
    }
}
