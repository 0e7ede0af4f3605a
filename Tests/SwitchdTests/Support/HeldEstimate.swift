import Positioning
@testable import switchd

/// An ``ExpectedErrorEstimates/Estimate`` the test drives: the n-th call (from 1) announces itself
/// (``started(_:)`` returns) and then waits for ``release(_:)``; it rates every surveyed location
/// n metres, so a test can tell which call's estimate a map carries.
actor HeldEstimate {
    private var calls = 0
    private var startWaiters: [Int: [CheckedContinuation<Void, Never>]] = [:]
    private var held: [Int: CheckedContinuation<Void, Never>] = [:]
    private var released: Set<Int> = []

    /// How many calls have started.
    var startedCount: Int { calls }

    func estimate(_ map: RadioMap) async -> [Int64: ExpectedError] {
        calls += 1
        let call = calls
        for waiter in startWaiters.removeValue(forKey: call) ?? [] { waiter.resume() }
        if !released.contains(call) { await withCheckedContinuation { held[call] = $0 } }
        let surveyed = map.locations.filter { !$0.scans.isEmpty }
        return Dictionary(uniqueKeysWithValues: surveyed.map { ($0.locationID, ExpectedError(metres: Double(call), quantile: 0.68, samples: 1)) })
    }

    /// Returns once the `call`-th estimate has started.
    func started(_ call: Int) async {
        guard calls < call else { return }
        await withCheckedContinuation { startWaiters[call, default: []].append($0) }
    }

    /// Lets the `call`-th estimate finish (now, or as soon as it starts).
    func release(_ call: Int) {
        released.insert(call)
        held.removeValue(forKey: call)?.resume()
    }
}

extension ExpectedErrorEstimates {
    /// Estimates that `held` drives.
    init(_ held: HeldEstimate) {
        self.init(estimate: { await held.estimate($0) })
    }
}
