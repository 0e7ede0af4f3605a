import CoreMetrics
import Foundation

/// What the MQTT publisher is doing, for `GET /v1/integrations/mqtt` and `/metrics`.
actor MQTTStatus {
    /// What `GET /v1/integrations/mqtt` answers.
    struct Report: Codable, Sendable, Equatable {
        var enabled: Bool
        var broker: String?
        var connected: Bool
        var connectedSince: Date?
        var lastError: String?
        var lastErrorAt: Date?
        /// Connections made since switchd started.
        var connections: Int
        /// Messages waiting in the persisted outbox.
        var outboxDepth: Int
        /// Messages the broker has taken, by kind (`position`, `switch`, `discovery`, …).
        var published: [String: Int]
        /// On PostgreSQL, an instance that does not lead the cluster's `mqtt` election answers
        /// with what the leader stored: which instance that is, and when it stored it (nil on
        /// SQLite and on the leader, which answers from memory).
        var reportedBy: String?
        var reportedAt: Date?
    }

    /// Raised on every change of the report, for whoever waits for one (tests, the admin page's feed).
    let changes = Watermark()
    /// On PostgreSQL's leader, raised to the ``changes`` value a stored report covers, once
    /// ``MQTTStatusRecorder`` has stored it for the other instances (tests wait on it).
    let stored = Watermark()
    /// Raised to the last outbox row's ID by each ``MQTTOutbox/put(_:)``; the publisher waits on it.
    let outboxAdded = Watermark()
    private let broker: String?
    private let factory: any MetricsFactory
    private let connectedGauge: CoreMetrics.Gauge
    private let outboxGauge: CoreMetrics.Gauge
    private var connectedSince: Date?
    private var lastError: (String, Date)?
    private var connections = 0
    private var published: [String: Int] = [:]
    private var outboxDepth = 0
    /// Whether this instance leads the cluster's `mqtt` election (``MQTTStatusRecorder``);
    /// on SQLite nothing sets it.
    private(set) var isLeading = false

    init(broker: MQTTBroker?, factory: any MetricsFactory) {
        self.broker = broker?.description
        self.factory = factory
        connectedGauge = CoreMetrics.Gauge(label: "switchd_mqtt_connected", factory: factory)
        outboxGauge = CoreMetrics.Gauge(label: "switchd_mqtt_outbox_depth", factory: factory)
        connectedGauge.record(0)
    }

    func connected(at now: Date) async {
        connectedSince = now
        connections += 1
        connectedGauge.record(1)
        CoreMetrics.Counter(label: "switchd_mqtt_connections_total", factory: factory).increment()
        await changes.bump()
    }

    func disconnected(_ error: (any Error)?, at now: Date) async {
        connectedSince = nil
        connectedGauge.record(0)
        if let error { lastError = ("\(error)", now) }
        await changes.bump()
    }

    /// Counts messages the broker took (acknowledged at QoS 1, written at QoS 0).
    func published(_ count: Int, kind: String) async {
        guard count > 0 else { return }
        published[kind, default: 0] += count
        CoreMetrics.Counter(label: "switchd_mqtt_published_total", dimensions: [("kind", kind)], factory: factory).increment(by: count)
        await changes.bump()
    }

    /// Returns once the report satisfies `condition` (at once if it does now), or on cancellation.
    func wait(until condition: @Sendable (Report) -> Bool) async {
        while !Task.isCancelled {
            let seen = await changes.value
            if condition(report()) { return }
            await changes.wait(untilAbove: seen)
        }
    }

    func lead(_ leading: Bool) {
        isLeading = leading
    }

    func outbox(depth: Int) async {
        outboxDepth = depth
        outboxGauge.record(depth)
        await changes.bump()
    }

    func report() -> Report {
        Report(
            enabled: broker != nil, broker: broker, connected: connectedSince != nil, connectedSince: connectedSince,
            lastError: lastError?.0, lastErrorAt: lastError?.1, connections: connections, outboxDepth: outboxDepth, published: published
        )
    }
}
