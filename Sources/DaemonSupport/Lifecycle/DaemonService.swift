/// A long-running job of a daemon, run by a ``DaemonServiceGroup``: `run()` returns when the job is
/// done, normally once ``GracefulShutdown`` reaches it. Returning earlier, or throwing, ends the
/// whole group.
public protocol DaemonService: Sendable {
    func run() async throws
}
