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
import ScanContract

/// Fixed scanners hearing a moving tag, simulated: the tag walks a ``Trajectory`` and advertises
/// `advertisementsPerWindow` times per window; each scanner hears each advertisement at the
/// log-distance model's RSSI with Gaussian shadowing (``PathLossModel/sampleRSSI(atDistance:using:)``),
/// or not at all below `sensitivity`. Deterministic for a seed. What the demo and the end-to-end
/// tests post to switchd as several fixed scanners in one process.
public struct SimulatedTagScanners: Sendable {
    public struct Scanner: Hashable, Sendable {
        public var point: PlanPoint
        public var height: Double

        public init(point: PlanPoint, height: Double) {
            self.point = point
            self.height = height
        }
    }

    public var scanners: [Scanner]
    public var trajectory: Trajectory
    public var tagHeight: Double
    public var model: PathLossModel
    public var windowSeconds: Double
    public var advertisementsPerWindow: Int
    /// Weaker than this (dBm) is not heard.
    public var sensitivity: Double
    private var generator: SeededGenerator

    public init(
        scanners: [Scanner], trajectory: Trajectory, tagHeight: Double = 1, model: PathLossModel, windowSeconds: Double = 1,
        advertisementsPerWindow: Int = 5, sensitivity: Double = -100, seed: UInt64
    ) {
        self.scanners = scanners
        self.trajectory = trajectory
        self.tagHeight = tagHeight
        self.model = model
        self.windowSeconds = windowSeconds
        self.advertisementsPerWindow = advertisementsPerWindow
        self.sensitivity = sensitivity
        generator = SeededGenerator(seed: seed)
    }

    /// Window `index` (from the trajectory's start): what each scanner heard (by index in
    /// ``scanners``; scanners that heard nothing are left out), and where the tag was at the
    /// window's middle.
    public mutating func window(_ index: Int) -> (heard: [Int: SightingWindow], truth: PlanPoint) {
        var heard: [Int: SightingWindow] = [:]
        let count = max(advertisementsPerWindow, 1)
        for advertisement in 0..<count {
            let elapsed = (Double(index) + (Double(advertisement) + 0.5) / Double(count)) * windowSeconds
            let tag = trajectory.position(after: elapsed)
            for (scannerIndex, scanner) in scanners.enumerated() {
                let dz = scanner.height - tagHeight
                let distance = (pow(tag.distance(to: scanner.point), 2) + dz * dz).squareRoot()
                let rssi = Double(model.sampleRSSI(atDistance: distance, using: &generator))
                guard rssi >= sensitivity else { continue }
                heard[scannerIndex, default: SightingWindow()].add(rssi)
            }
        }
        return (heard, trajectory.position(after: (Double(index) + 0.5) * windowSeconds))
    }
}
