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

/// Position from the RSSI of anchors of known position: weighted nonlinear least squares on the
/// log-distance model, `min Σ wᵢ (RSSIᵢ − P₁ᵢ + 10·nᵢ·log10 dᵢ(x, y))²`, solved by
/// Levenberg–Marquardt from the weighted centroid, with a weak prior pulling towards that
/// centroid. The prior keeps the answer finite and on the anchors' line when they are only 1–2
/// or collinear, and shows up as a large accuracy radius.
public struct BLETrilateration: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Height of the receiver (or carried beacon) above the floor, metres.
        public var height: Double
        /// Standard deviation of the prior around the weighted centroid, metres.
        public var priorSpread: Double
        /// How far outside the anchors' bounding box the answer may go, metres.
        public var margin: Double
        public var maximumIterations: Int

        public init(height: Double = 1.2, priorSpread: Double = 10, margin: Double = 3, maximumIterations: Int = 40) {
            self.height = height
            self.priorSpread = priorSpread
            self.margin = margin
            self.maximumIterations = maximumIterations
        }
    }

    public static let methodName = "ble-trilateration"
    public var settings: Settings

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The position, or nil when nothing usable was heard (no reading with a finite RSSI below
    /// 0 dBm). Only anchors on the floor heard best are used; the estimate takes that floor.
    /// The accuracy radius is √(trace of the posterior covariance): about the distance to the
    /// single anchor heard, and the prior spread along the unresolved direction of a line.
    public func locate(_ readings: [AnchorReading]) -> PositionEstimate? {
        let heard = readings.filter { $0.rssi.isFinite && $0.rssi < 0 }
        guard let strongest = heard.max(by: { $0.rssi < $1.rssi }) else { return nil }
        let floorID = strongest.anchor.floorID
        let used = heard.filter { $0.anchor.floorID == floorID }
        let centroid = Self.weightedCentroid(used)
        if used.count == 1 {
            let model = strongest.anchor.model
            let range = model.distance(forRSSI: strongest.rssi)
            let horizontal = (max(range * range - pow(strongest.anchor.z - settings.height, 2), 0)).squareRoot()
            return PositionEstimate(
                floorID: floorID, x: centroid.x, y: centroid.y,
                accuracyMetres: max(horizontal, 1) * pow(10, model.shadowingSigma / (10 * model.exponent)), method: Self.methodName
            )
        }
        let solution = solve(used, from: centroid)
        return PositionEstimate(floorID: floorID, x: solution.x, y: solution.y, accuracyMetres: solution.accuracy, method: Self.methodName)
    }

    /// The mean of the anchors' positions weighted by received power (mW), a fallback and the
    /// starting point.
    static func weightedCentroid(_ readings: [AnchorReading]) -> (x: Double, y: Double) {
        let strongest = readings.map(\.rssi).max() ?? 0
        var sum = (x: 0.0, y: 0.0, w: 0.0)
        for reading in readings {
            let w = pow(10, (reading.rssi - strongest) / 10)
            sum = (sum.x + w * reading.anchor.x, sum.y + w * reading.anchor.y, sum.w + w)
        }
        return sum.w > 0 ? (sum.x / sum.w, sum.y / sum.w) : (0, 0)
    }

    private struct Normal {
        var a11 = 0.0, a12 = 0.0, a22 = 0.0, g1 = 0.0, g2 = 0.0, cost = 0.0
    }

    /// Normal equations of the weighted problem at (x, y), prior included.
    private func normal(_ readings: [AnchorReading], x: Double, y: Double, centroid: (x: Double, y: Double)) -> Normal {
        var n = Normal()
        let priorWeight = 1 / (settings.priorSpread * settings.priorSpread)
        for reading in readings {
            let anchor = reading.anchor
            let dx = x - anchor.x, dy = y - anchor.y, dz = settings.height - anchor.z
            let d2 = max(dx * dx + dy * dy + dz * dz, 0.01)
            let predicted = anchor.model.powerAt1m - 5 * anchor.model.exponent * log10(d2)
            let residual = reading.rssi - predicted
            let sigma = max(anchor.model.shadowingSigma, 0.5)
            let w = 1 / (sigma * sigma)
            // ∂predicted/∂x = −10·n/ln10 · dx/d².
            let k = -10 * anchor.model.exponent / log(10) / d2
            let jx = k * dx, jy = k * dy
            n.a11 += w * jx * jx
            n.a12 += w * jx * jy
            n.a22 += w * jy * jy
            n.g1 += w * jx * residual
            n.g2 += w * jy * residual
            n.cost += w * residual * residual
        }
        let px = x - centroid.x, py = y - centroid.y
        n.a11 += priorWeight
        n.a22 += priorWeight
        n.g1 -= priorWeight * px
        n.g2 -= priorWeight * py
        n.cost += priorWeight * (px * px + py * py)
        return n
    }

    private func solve(_ readings: [AnchorReading], from centroid: (x: Double, y: Double)) -> (x: Double, y: Double, accuracy: Double) {
        let xs = readings.map(\.anchor.x), ys = readings.map(\.anchor.y)
        let box = (
            minX: (xs.min() ?? 0) - settings.margin, maxX: (xs.max() ?? 0) + settings.margin,
            minY: (ys.min() ?? 0) - settings.margin, maxY: (ys.max() ?? 0) + settings.margin
        )
        var x = centroid.x, y = centroid.y
        var current = normal(readings, x: x, y: y, centroid: centroid)
        var lambda = 1e-3
        for _ in 0..<settings.maximumIterations {
            let a11 = current.a11 * (1 + lambda), a22 = current.a22 * (1 + lambda), a12 = current.a12
            let det = a11 * a22 - a12 * a12
            guard det.isFinite, det > 0 else { break }
            let sx = (a22 * current.g1 - a12 * current.g2) / det
            let sy = (a11 * current.g2 - a12 * current.g1) / det
            let nx = min(max(x + sx, box.minX), box.maxX)
            let ny = min(max(y + sy, box.minY), box.maxY)
            let next = normal(readings, x: nx, y: ny, centroid: centroid)
            if next.cost.isFinite, next.cost < current.cost {
                let moved = abs(nx - x) + abs(ny - y)
                x = nx
                y = ny
                current = next
                lambda = max(lambda / 3, 1e-7)
                if moved < 1e-4 { break }
            } else {
                lambda *= 4
                if lambda > 1e6 { break }
            }
        }
        // Posterior covariance ≈ (JᵀWJ + prior)⁻¹; its trace is the squared radius.
        let det = current.a11 * current.a22 - current.a12 * current.a12
        let trace = det > 0 ? (current.a11 + current.a22) / det : settings.priorSpread * settings.priorSpread * 2
        let accuracy = trace.isFinite ? trace.squareRoot() : settings.priorSpread
        guard x.isFinite, y.isFinite else { return (centroid.x, centroid.y, settings.priorSpread) }
        return (x, y, accuracy)
    }
}
