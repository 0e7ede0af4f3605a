import Logging
import ServiceLifecycle
import SwitchdStore

/// The one place where switchd on PostgreSQL (several instances, one database) differs from
/// switchd on SQLite (one instance): which background services every instance runs, and which run
/// once per cluster under an election (docs/scale-out.md). The routes are the same on both.
struct ClusterAware {
    let database: AppDatabase
    let logger: Logger
    let clock: any Clock<Duration>
    /// Told this instance's standing after each try in an election (``ClusterLeaderService``).
    let onLeadership: @Sendable (_ role: String, _ standing: Leadership) async -> Void

    /// What every instance runs for the store itself: on PostgreSQL, the fan-out that wakes this
    /// instance's feeds, switch hub and MQTT outbox for rows other instances commit; on SQLite,
    /// the WAL checkpointer.
    func storeServices(hub: SwitchHub, feeds: Feeds, mqttOutboxAdded: Watermark?) -> [any Service] {
        var services: [any Service] = []
        if database.runsOnPostgres {
            services.append(ClusterFanOutService(
                database: database, hub: hub, feeds: feeds, logger: logger, clock: clock, mqttOutboxAdded: mqttOutboxAdded
            ))
        }
        if let checkpointer = database.checkpointer {
            services.append(WALCheckpointService(checkpointer: checkpointer, logger: logger))
        }
        return services
    }

    /// `services` run once per cluster: on PostgreSQL inside an election named `role` (the instance
    /// that holds its lock runs them, another takes over when it goes); on SQLite by this, the only,
    /// instance. Each role is its own election, so the background work can spread over instances.
    func oncePerCluster(_ role: String, _ services: [any Service]) -> [any Service] {
        guard !services.isEmpty else { return [] }
        guard database.runsOnPostgres else { return services }
        let onLeadership = onLeadership
        return [ClusterLeaderService(
            database: database, role: role, services: services, logger: logger, clock: clock, observe: { await onLeadership(role, $0) }
        )]
    }
}
