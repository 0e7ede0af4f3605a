import Dispatch
import Foundation
import Logging
import Positioning
import ScanContract
import SwitchdStore
import Synchronization

/// Where every SVG plan switchd reads is read, uploaded or stored: through ``SVGParser`` with one
/// ``SVGBudget``, on a dispatch queue of its own, one plan at a time. Never on Swift's cooperative
/// threads, which serve every request: a plan that takes long to read (up to its budget) holds up
/// only the plans queued behind it, never `/healthz` or any other request.
final class SVGPlanReader: Sendable {
    let budget: SVGBudget
    private let queue = DispatchQueue(label: "switchd.svg-plans", qos: .utility)
    private let willParse: @Sendable () -> Void
    /// Stored plans already logged as unreadable (floor, time stored, size): each is logged once.
    private let reported = Mutex<Set<[Int64]>>([])

    /// - Parameter willParse: called on the queue before each parse; tests hold a parse there.
    init(budget: SVGBudget, willParse: @escaping @Sendable () -> Void = {}) {
        self.budget = budget
        self.willParse = willParse
    }

    /// Why an uploaded plan is not to be stored, or nil when it is to be.
    func problem(in data: Data) async -> SVGProblem? {
        await onQueue { [budget] () -> SVGProblem? in
            do throws(SVGProblem) {
                try SVGDocument.check(data, budget: budget)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The walls of a stored SVG plan (``SVGWalls``). A plan that cannot be read (one stored by a
    /// version that checked less, or over the budget) has none: that is logged once per plan,
    /// with the reason, and the caller goes on without walls.
    func walls(of plan: StoredPlan, floor floorID: Int64, scale: PlanScale, logger: Logger) async -> [WallSegment] {
        let read = await onQueue { [budget] () -> Result<[WallSegment], SVGProblem> in
            Result { () throws(SVGProblem) in try SVGWalls.segments(in: plan.image, scale: scale, budget: budget) }
        }
        switch read {
        case .success(let walls):
            return walls
        case .failure(let problem):
            let key = [floorID, plan.updated.milliseconds, Int64(plan.image.count)]
            if reported.withLock({ $0.insert(key).inserted }) {
                logger.warning(
                    "A stored SVG plan cannot be read; it is taken as a plan without walls",
                    metadata: ["floor": "\(floorID)", "reason": "\(problem.message)"]
                )
            }
            return []
        }
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { [willParse] in
                willParse()
                continuation.resume(returning: body())
            }
        }
    }
}
