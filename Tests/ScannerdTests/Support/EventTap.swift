import Foundation
import Synchronization
@testable import scannerd

/// Every event an ``EventLog`` records, kept for the test to look at or wait for.
final class EventTap: Sendable {
    private struct Waiter {
        let id: Int
        let matches: @Sendable (ScannerEvent) -> Bool
        let continuation: CheckedContinuation<ScannerEvent?, Never>
    }

    private struct State {
        var events: [ScannerEvent] = []
        var waiters: [Waiter] = []
        var nextWaiterID = 0
    }

    private let state = Mutex(State())

    /// For ``EventLog``'s `tap`.
    var record: @Sendable (ScannerEvent) -> Void {
        { [self] event in
            let woken = state.withLock { state in
                state.events.append(event)
                let woken = state.waiters.filter { $0.matches(event) }
                state.waiters.removeAll { $0.matches(event) }
                return woken
            }
            for waiter in woken { waiter.continuation.resume(returning: event) }
        }
    }

    var events: [ScannerEvent] { state.withLock { $0.events } }

    /// Session events in order with their revision: `["switch 2", "scanning 2", "idle 2"]`.
    var timeline: [String] {
        events.compactMap(Self.timelineEntry)
    }

    /// A session event as ``timeline`` shows it; nil for other events.
    static func timelineEntry(_ event: ScannerEvent) -> String? {
        switch event {
        case .switchReceived(let revision, _, _): "switch \(revision)"
        case .scanning(let revision): "scanning \(revision)"
        case .idle(let revision): "idle \(revision)"
        default: nil
        }
    }

    /// Whether `entry` (as in ``timeline``) was recorded.
    func saw(_ entry: String) -> Bool {
        timeline.contains(entry)
    }

    /// The first event recorded that `matches`, waiting for it when none has been yet. Waits
    /// for the event, however long it takes; nil when the test is cancelled first (its time
    /// limit is up).
    @discardableResult
    func first(where matches: @escaping @Sendable (ScannerEvent) -> Bool) async -> ScannerEvent? {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let found = state.withLock { state -> ScannerEvent?? in
                    if let event = state.events.first(where: matches) { return .some(event) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters.append(Waiter(id: id, matches: matches, continuation: continuation))
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let waiter = state.waiters.first { $0.id == id }
                state.waiters.removeAll { $0.id == id }
                return waiter
            }
            waiter?.continuation.resume(returning: nil)
        }
    }

    /// Waits for `entry` (as in ``timeline``).
    func waitFor(_ entry: String) async {
        await first { Self.timelineEntry($0) == entry }
    }

    /// Waits until the uploader has settled batch `batchID`: acknowledged (`acked`, recorded just
    /// before its file is deleted) or rejected (`rejected`, recorded once it is moved).
    func settled(_ batchID: UUID) async {
        await first { event in
            switch event {
            case .acked(let id, _, _), .rejected(let id, _): id == batchID
            default: false
            }
        }
    }
}
