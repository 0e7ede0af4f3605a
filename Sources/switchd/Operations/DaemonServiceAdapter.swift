import DaemonSupport
import ServiceLifecycle

/// Runs one of DaemonSupport's services (the systemd notifier, the watchdog) in switchd's
/// swift-service-lifecycle group: its ``GracefulShutdown`` is triggered when the group's graceful
/// shutdown reaches this service, and it ends when the service does.
struct DaemonServiceAdapter: Service, CustomStringConvertible {
    let service: any DaemonService & CustomStringConvertible

    var description: String { service.description }

    func run() async throws {
        let shutdown = GracefulShutdown()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [service] in try await shutdown.bound { try await service.run() } }
            group.addTask {
                // Ends (and triggers nothing that matters) when cancelled once the service is done.
                try? await gracefulShutdown()
                shutdown.trigger()
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}
