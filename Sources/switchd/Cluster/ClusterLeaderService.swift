import Logging
import ServiceLifecycle
import SwitchdStore

/// Where an instance stands in one leader election (``ClusterLeaderService``).
enum Leadership: Sendable, Equatable {
    /// It holds the lock and runs the services.
    case leading
    /// Another instance holds the lock; it tries again later.
    case following
    /// The connection holding the lock went: the services were stopped; it tries again later.
    case lost
}

/// Runs `services` on one switchd of the cluster at a time (docs/scale-out.md, "Fan-out across
/// instances", cluster-wide background work): presence derivation, webhook deliveries and the
/// MQTT bridge (one broker session) must not run twice over one database. The instance that takes the session advisory lock named `role`
/// (``AppDatabase/whileLeading(_:_:)``) runs them until it stops; the others try again every
/// ``retryInterval``. The lock lives on a connection of its own, so when the leader dies or its
/// connection goes, PostgreSQL releases it and another instance takes over within that interval;
/// a leader whose connection went stops its services first, as another may lead already.
///
/// Added only on PostgreSQL: on SQLite one switchd owns its file and runs the services itself.
/// A service that throws is logged and started again with the next election. Ends on graceful
/// shutdown.
struct ClusterLeaderService: Service {
    let database: AppDatabase
    /// The lock's name: one election per name.
    let role: String
    let services: [any Service]
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    var retryInterval: Duration = .seconds(1)
    /// Told each change of standing; tests wait on it.
    var observe: @Sendable (Leadership) async -> Void = { _ in }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await elect()
                do {
                    try await clock.sleep(for: retryInterval)
                } catch {
                    return
                }
            }
        }
    }

    /// One attempt at leading: runs the services while it leads.
    private func elect() async {
        do {
            let led = try await database.whileLeading(role) {
                logger.notice("Leading the cluster: running its background work here", metadata: ["role": "\(role)"])
                await observe(.leading)
                try await runServices()
            }
            if !led {
                await observe(.following)
            }
        } catch is SessionLockLost {
            logger.warning("Lost the cluster's lead with the connection holding it; background work stopped here", metadata: ["role": "\(role)"])
            await observe(.lost)
        } catch {
            guard !Task.isCancelled else { return }
            logger.error("Could not take part in the cluster's leader election", metadata: ["role": "\(role)", "error": "\(error)"])
        }
    }

    /// Runs every service until all end (cancelled: the lead is gone or switchd stops).
    private func runServices() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask { try await service.run() }
            }
            try await group.waitForAll()
        }
    }
}
