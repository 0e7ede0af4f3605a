import CoreMetrics
import Synchronization

/// Wraps switchd's metrics factory (``SwitchdMetrics``'s `wrap`) so a test can wait for a meter
/// to change: each change goes on to the registry first, then wakes whoever waits for it. Waits
/// are woken by the change itself, never by polling `/metrics`.
final class MeterWatch: Sendable {
    private struct Waiter {
        let id: Int
        let key: String
        let count: Int
        let continuation: CheckedContinuation<[Double], Never>
    }

    private struct State {
        /// Each meter's values after each change, by ``key(_:_:)``.
        var history: [String: [Double]] = [:]
        var waiters: [Waiter] = []
        var nextWaiterID = 0
    }

    private let state = Mutex(State())

    /// For `SwitchdMetrics(wrap:)`.
    var wrap: @Sendable (any MetricsFactory) -> any MetricsFactory {
        { [self] base in WatchedFactory(base: base, watch: self) }
    }

    /// The meter's values after each of its first `count` changes, once it has changed that
    /// often; what it has when the test is cancelled first (its time limit is up).
    func changes(_ count: Int, of label: String, _ dimensions: [(String, String)]) async -> [Double] {
        let key = Self.key(label, dimensions)
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> [Double]? in
                    let history = state.history[key, default: []]
                    if history.count >= count || Task.isCancelled { return Array(history.prefix(count)) }
                    state.waiters.append(Waiter(id: id, key: key, count: count, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let woken = state.withLock { state in
                let waiter = state.waiters.first { $0.id == id }
                state.waiters.removeAll { $0.id == id }
                return waiter.map { ($0, state.history[$0.key, default: []]) }
            }
            woken?.0.continuation.resume(returning: woken?.1 ?? [])
        }
    }

    fileprivate func changed(_ key: String, by change: (Double) -> Double) {
        let woken = state.withLock { state in
            let value = change(state.history[key]?.last ?? 0)
            state.history[key, default: []].append(value)
            let history = state.history[key, default: []]
            let woken = state.waiters.filter { $0.key == key && $0.count <= history.count }
            state.waiters.removeAll { $0.key == key && $0.count <= history.count }
            return woken.map { ($0, Array(history.prefix($0.count))) }
        }
        for (waiter, history) in woken { waiter.continuation.resume(returning: history) }
    }

    fileprivate static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        label + "{" + dimensions.map { "\($0.0)=\($0.1)" }.sorted().joined(separator: ",") + "}"
    }
}

/// Hands everything to `base`; meters also tell the watch.
private struct WatchedFactory: MetricsFactory {
    let base: any MetricsFactory
    let watch: MeterWatch

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        base.makeCounter(label: label, dimensions: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        base.makeFloatingPointCounter(label: label, dimensions: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        WatchedMeter(base: base.makeMeter(label: label, dimensions: dimensions), key: MeterWatch.key(label, dimensions), watch: watch)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        base.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        base.makeTimer(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { base.destroyFloatingPointCounter(handler) }
    func destroyMeter(_ handler: any MeterHandler) { base.destroyMeter((handler as? WatchedMeter)?.base ?? handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
}

private final class WatchedMeter: MeterHandler {
    let base: any MeterHandler
    let key: String
    let watch: MeterWatch

    init(base: any MeterHandler, key: String, watch: MeterWatch) {
        self.base = base
        self.key = key
        self.watch = watch
    }

    func set(_ value: Int64) { set(Double(value)) }

    func set(_ value: Double) {
        base.set(value)
        watch.changed(key) { _ in value }
    }

    func increment(by amount: Double) {
        base.increment(by: amount)
        watch.changed(key) { $0 + amount }
    }

    func decrement(by amount: Double) {
        base.decrement(by: amount)
        watch.changed(key) { $0 - amount }
    }
}
