#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Combines the estimates several methods made of the same moment by inverse-variance
/// weighting of their accuracy radii, one floor at a time.
public struct PositionFusion: Hashable, Sendable {
    public static let methodName = "fused"
    /// Methods whose floor is trusted over the others' (fingerprints see the floor; trilateration
    /// only guesses it from the loudest beacon).
    public var floorAuthorities: Set<String>

    public init(floorAuthorities: Set<String> = [BLEFingerprint.methodName, "wifi-knn"]) {
        self.floorAuthorities = floorAuthorities
    }

    /// The fused estimate, or nil when no estimate has finite coordinates and a positive finite
    /// accuracy. The floor is that of the most accurate estimate from a floor authority, else
    /// the floor with the largest total weight; estimates on other floors are left out, never
    /// averaged; estimates without a floor join any floor. Weights are 1 / accuracy², and the
    /// fused accuracy is 1 / √(Σ weights).
    public func fuse(_ estimates: [PositionEstimate]) -> PositionEstimate? {
        let valid = estimates.filter {
            $0.x.isFinite && $0.y.isFinite && $0.accuracyMetres.isFinite && $0.accuracyMetres > 0
        }
        guard !valid.isEmpty else { return nil }
        let floorID = chooseFloor(valid)
        let used = valid.filter { $0.floorID == nil || $0.floorID == floorID }
        var x = 0.0, y = 0.0, total = 0.0
        for estimate in used {
            let w = Self.weight(estimate)
            x += w * estimate.x
            y += w * estimate.y
            total += w
        }
        if used.count == 1, let only = used.first {
            return PositionEstimate(floorID: floorID, x: only.x, y: only.y, accuracyMetres: only.accuracyMetres, method: Self.methodName)
        }
        return PositionEstimate(floorID: floorID, x: x / total, y: y / total, accuracyMetres: 1 / total.squareRoot(), method: Self.methodName)
    }

    static func weight(_ estimate: PositionEstimate) -> Double {
        1 / (estimate.accuracyMetres * estimate.accuracyMetres)
    }

    private func chooseFloor(_ estimates: [PositionEstimate]) -> Int64? {
        let authoritative = estimates.filter { floorAuthorities.contains($0.method) && $0.floorID != nil }
        if let best = authoritative.min(by: { $0.accuracyMetres < $1.accuracyMetres }) { return best.floorID }
        var byFloor: [Int64: Double] = [:]
        for estimate in estimates {
            guard let floor = estimate.floorID else { continue }
            byFloor[floor, default: 0] += Self.weight(estimate)
        }
        return byFloor.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }
}
