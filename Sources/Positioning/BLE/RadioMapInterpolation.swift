#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Densifies a floor's BLE radio map onto a regular grid, so fingerprinting is not limited to
/// the surveyed spots: each beacon's mean RSSI is the path-loss prediction plus the surveyed
/// residuals interpolated by Gaussian-process regression (squared-exponential kernel).
public struct RadioMapInterpolation: Hashable, Sendable {
    /// Grid step, metres.
    public var step: Double
    /// Distance over which residuals stay alike, metres.
    public var lengthScale: Double
    /// Noise-to-signal variance ratio of the residuals: larger smooths more.
    public var noiseRatio: Double

    public init(step: Double = 0.5, lengthScale: Double = 2, noiseRatio: Double = 0.3) {
        self.step = step
        self.lengthScale = lengthScale
        self.noiseRatio = noiseRatio
    }

    /// Grid locations (IDs −1, −2, … so they cannot be mistaken for surveyed ones) over the
    /// bounding box of `locations`, on the floor of the first location, each in the room of the
    /// nearest surveyed location. Beacons without an anchor, or heard at fewer than 2 locations,
    /// are left out. Returns `locations` unchanged when nothing can be interpolated.
    public func densify(_ locations: [RadioMapLocation], anchors: [Emitter: RangingAnchor], height: Double) -> [RadioMapLocation] {
        guard let floorID = locations.first?.floorID, step > 0 else { return locations }
        let floor = locations.filter { $0.floorID == floorID }
        let xs = floor.map(\.x), ys = floor.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return locations }
        var grid: [(x: Double, y: Double)] = []
        var gx = minX
        while gx <= maxX + 1e-9 {
            var gy = minY
            while gy <= maxY + 1e-9 {
                grid.append((gx, gy))
                gy += step
            }
            gx += step
        }
        var columns: [(Emitter, [Double], Double)] = []
        for (emitter, anchor) in anchors.sorted(by: { $0.key < $1.key }) {
            if let column = interpolate(emitter, anchor: anchor, floor, grid: grid, height: height) {
                columns.append((emitter, column, anchor.model.shadowingSigma))
            }
        }
        guard !columns.isEmpty else { return locations }
        return grid.enumerated().map { index, point in
            let nearest = floor.min { hypot($0.x - point.x, $0.y - point.y) < hypot($1.x - point.x, $1.y - point.y) }
            return RadioMapLocation(
                locationID: -Int64(index + 1), floorID: floorID, roomID: nearest?.roomID ?? 0, x: point.x, y: point.y,
                emitters: columns.map { EmitterFingerprint(emitter: $0.0, mean: $0.1[index], spread: $0.2, count: 0) }
            )
        }
    }

    private func interpolate(
        _ emitter: Emitter, anchor: RangingAnchor, _ floor: [RadioMapLocation], grid: [(x: Double, y: Double)], height: Double
    ) -> [Double]? {
        func predicted(_ x: Double, _ y: Double) -> Double {
            let d = (pow(x - anchor.x, 2) + pow(y - anchor.y, 2) + pow(height - anchor.z, 2)).squareRoot()
            return anchor.model.meanRSSI(atDistance: d)
        }
        let known = floor.compactMap { location in
            location.emitters.first { $0.emitter == emitter }.map { (x: location.x, y: location.y, r: $0.mean - predicted(location.x, location.y)) }
        }
        guard known.count >= 2 else { return nil }
        let n = known.count
        let scale = 2 * lengthScale * lengthScale
        var kernel = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n {
                kernel[i * n + j] = exp(-(pow(known[i].x - known[j].x, 2) + pow(known[i].y - known[j].y, 2)) / scale)
            }
            kernel[i * n + i] += noiseRatio
        }
        guard let alpha = solveSymmetricPositiveDefinite(kernel, known.map(\.r)) else { return nil }
        return grid.map { point in
            var residual = 0.0
            for (k, a) in zip(known, alpha) {
                residual += a * exp(-(pow(point.x - k.x, 2) + pow(point.y - k.y, 2)) / scale)
            }
            return predicted(point.x, point.y) + residual
        }
    }
}
