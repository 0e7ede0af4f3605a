import Logging

/// Says `STOPPING=1` to systemd when graceful shutdown reaches it, and optionally `READY=1` with a
/// status line as soon as it runs. Put it last in a service group so that it runs once every
/// other service has started and hears of shutdown first.
public struct SystemdLifecycleService: DaemonService, CustomStringConvertible {
    let notifier: SystemdNotifier
    /// Sent with `READY=1` when the service starts; nil when readiness is said elsewhere
    /// (switchd says it once its socket listens).
    let readyStatus: String?
    let logger: Logger

    /// How the service group names it in its logs.
    public var description: String { "SystemdLifecycleService" }

    public init(notifier: SystemdNotifier, readyStatus: String?, logger: Logger) {
        self.notifier = notifier
        self.readyStatus = readyStatus
        self.logger = logger
    }

    /// Returns once graceful shutdown has begun (or on cancellation); failures to notify are logged.
    public func run() async {
        if let readyStatus {
            send([.ready, .status(readyStatus)])
        }
        try? await GracefulShutdown.wait()
        send([.stopping, .status("stopping")])
    }

    private func send(_ states: [NotifyState]) {
        do {
            try notifier.notify(states)
        } catch {
            logger.error("could not notify systemd", metadata: ["error": "\(error)", "message": "\(states.map(\.line))"])
        }
    }
}
