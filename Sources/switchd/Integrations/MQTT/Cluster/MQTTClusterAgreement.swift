import Foundation
import SwitchdStore

/// On PostgreSQL every instance must publish to the same broker under the same client ID: only
/// the instance leading the `mqtt` election holds a session, and the broker keeps one session
/// (its queued QoS 1 messages, its subscriptions) per client ID, so an instance that takes the
/// lead with another ID or broker would start a second session and strand the first
/// (docs/scale-out.md, "The MQTT bridge's status"). switchd checks at start against the status a
/// live leader stored (``MQTTStatusRecorder``) and refuses to start when they differ. A status
/// older than ``MQTTStatusRecorder/staleAfter`` is no live leader's, so changing the broker or
/// client ID means stopping every instance first, then starting them with the new one.
enum MQTTClusterAgreement {
    struct Disagreement: Error, CustomStringConvertible {
        var option: String
        var ours: String
        var theirs: String
        var instance: String

        var description: String {
            "\(option) \(ours) is not the cluster's: the MQTT bridge, led by \(instance), uses \(theirs); every switchd on one "
                + "database must use the same broker and client ID (a broker keeps one session per client ID). Give \(theirs), "
                + "or stop every instance and start them all with the new one (docs/scale-out.md)"
        }
    }

    /// Throws ``Disagreement`` when a live leader's stored broker or client ID is not `settings`'.
    /// Nothing to compare on SQLite, without a broker, or when no live leader has stored a status.
    static func check(_ settings: MQTTSettings?, database: AppDatabase, now: Date) async throws {
        guard database.runsOnPostgres, let settings, let stored = try await database.mqttBridgeStatus(),
              now.timeIntervalSince(stored.updated) <= MQTTStatusRecorder.staleAfter else { return }
        if stored.broker != settings.broker.description {
            throw Disagreement(option: "--mqtt-broker", ours: settings.broker.description, theirs: stored.broker, instance: stored.instance)
        }
        if stored.clientID != settings.clientID {
            throw Disagreement(option: "--mqtt-client-id", ours: settings.clientID, theirs: stored.clientID, instance: stored.instance)
        }
    }
}
