import Glibc

/// Threads of the system's own (pthreads), for radio work that blocks in system calls and so must
/// stay off Swift's cooperative pool.
enum OSThread {
    /// Starts `body` on a new, detached thread named `name` (Linux keeps the first 15 bytes, which
    /// `ps -L` and `top -H` show).
    ///
    /// - Throws: ``SystemError`` (`pthread_create`) when the system refuses a new thread, e.g.
    ///   `EAGAIN` at the process's thread limit; `body` then never runs.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let context = Unmanaged.passRetained(ThreadBody(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, runThreadBody, context)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemError(call: "pthread_create", errno: status, path: nil)
        }
        pthread_detach(thread)
    }
}

/// What a new thread runs, kept alive across `pthread_create` by a retained reference.
private final class ThreadBody: Sendable {
    let name: String
    let run: @Sendable () -> Void

    init(name: String, run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }

    /// Names the calling thread through /proc (Glibc's module does not offer `pthread_setname_np`).
    /// Only a help for debugging: a failure leaves the process's name on the thread.
    func nameThisThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(fd, bytes, bytes.count)
        close(fd)
    }
}

/// The new thread's entry point: takes over the reference `OSThread.start` retained.
private func runThreadBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
    body.nameThisThread()
    body.run()
    return nil
}
