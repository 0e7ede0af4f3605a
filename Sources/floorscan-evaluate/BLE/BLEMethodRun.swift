import Evaluation
import Foundation
import Positioning

/// Runs a fitted pipeline over queries (in sequence order, the Kalman filter restarting at each
/// new sequence) and collects every method's errors and the time per query.
struct BLEMethodRun {
    var errors: [BLEMethodName: [Double]] = [:]
    var unanswered: [BLEMethodName: Int] = [:]
    var msPerQuery = 0.0

    init(_ pipeline: BLEPipeline, queries: [BLEQuery], filter settings: PositionKalmanFilter.Settings) {
        var filter = PositionKalmanFilter(settings: settings)
        var sequence: Int?
        let clock = ContinuousClock()
        let started = clock.now
        for query in queries {
            if query.sequence != sequence {
                filter.reset()
                sequence = query.sequence
            }
            let (lateration, matched, fused) = pipeline.estimates(query.window)
            let filtered = fused.map { filter.update($0, at: query.time) }
            let answers: [(BLEMethodName, PositionEstimate?)] = [
                (.trilateration, lateration), (.fingerprint, matched), (.fused, fused), (.filtered, filtered),
            ]
            for (method, estimate) in answers {
                if let error = planarError(estimate, x: query.x, y: query.y) {
                    errors[method, default: []].append(error)
                } else {
                    unanswered[method, default: 0] += 1
                }
            }
        }
        let elapsed = clock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        msPerQuery = queries.isEmpty ? 0 : ms / Double(queries.count)
    }

    func part(_ description: String, methods: [BLEMethodName]) -> BLEPartResult {
        var figures: [String: BLEMethodFigures] = [:]
        for method in methods {
            figures[method.rawValue] = BLEMethodFigures(errors: errors[method] ?? [])
        }
        return BLEPartResult(description: description, methods: figures, msPerQuery: BLEMethodFigures.rounded(msPerQuery))
    }
}
