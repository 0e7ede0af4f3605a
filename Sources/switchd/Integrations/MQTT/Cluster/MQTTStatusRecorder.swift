import Foundation
import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// On PostgreSQL, runs beside the MQTT publisher on the instance leading the cluster's `mqtt`
/// election and stores what its ``MQTTStatus`` reports (``AppDatabase/saveMQTTBridgeStatus(_:)``):
/// at once when it starts leading, then after each change but at most once per
/// ``minimumInterval``, and at least every ``heartbeat`` so other instances can tell a live
/// leader's status from one a dead leader left (docs/scale-out.md, "The MQTT bridge's status").
/// While it runs, the status says this instance leads.
struct MQTTStatusRecorder: Service {
    let status: MQTTStatus
    let database: AppDatabase
    let settings: MQTTSettings
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    var now: @Sendable () -> Date = Date.init
    var instance: String = MQTTStatusRecorder.thisInstance
    static let minimumInterval: Duration = .seconds(1)
    static let heartbeat: Duration = .seconds(10)
    /// A stored status older than this is no live leader's: three heartbeats missed.
    static let staleAfter: TimeInterval = 30

    /// The host name and process ID, as `GET /v1/integrations/mqtt` names the reporting instance.
    static var thisInstance: String { "\(ProcessInfo.processInfo.hostName) pid \(getpid())" }

    func run() async throws {
        await status.lead(true)
        await record()
        await status.lead(false)
    }

    private func record() async {
        while !Task.isCancelled {
            let seen = await status.changes.value
            do {
                try await database.saveMQTTBridgeStatus(MQTTBridgeStatus(
                    instance: instance, broker: settings.broker.description, clientID: settings.clientID,
                    report: String(decoding: try JSONCoding.encoder().encode(await status.report()), as: UTF8.self), updated: now()
                ))
                await status.stored.raise(to: seen)
            } catch {
                guard !Task.isCancelled else { return }
                logger.warning("Could not store the MQTT bridge's status for the other instances", metadata: ["error": "\(error)"])
            }
            do {
                try await clock.sleep(for: Self.minimumInterval)
            } catch {
                return
            }
            await waitForChange(after: seen, orAtMost: Self.heartbeat - Self.minimumInterval)
        }
    }

    /// Returns when the status changed after `seen`, `limit` has passed, or on cancellation.
    private func waitForChange(after seen: Int64, orAtMost limit: Duration) async {
        let clock = clock
        let changes = status.changes
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await changes.wait(untilAbove: seen) }
            group.addTask { try? await clock.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}
