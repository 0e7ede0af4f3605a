#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Positioning

/// How the simulated scanner behaves: the `--sim-*` options.
struct SimulationSettings: Sendable, Equatable {
    /// Where the scanner is when no survey location says otherwise.
    var trajectory: Trajectory
    var seed: UInt64
    /// Advertisements per second of every beacon, replacing the floor's own rates.
    var advertisingRate: Double?
    /// How long one Wi-Fi scan takes.
    var wifiScanDuration: Duration
    /// Stand at the surveyed location whenever the switch names one.
    var followSurvey: Bool
    /// Tags walking the floor (``SimulatedFloor/MovingTag/demo(walking:minor:)``, minor 1, 2, …).
    var tagTrajectories: [Trajectory]
    /// When the tags set off along their trajectories.
    var tagStart: Date
    /// dB every BLE reading is above the path-loss model: this receiver's own offset (switchd's
    /// estimate of its receive offset is the negative).
    var receiverGain: Int

    /// The demo floor with the moving tags.
    var floor: SimulatedFloor {
        var floor = SimulatedFloor.demo()
        floor.tags = tagTrajectories.enumerated().map { index, trajectory in
            .demo(walking: trajectory, minor: UInt16(clamping: index + 1), from: tagStart)
        }
        return floor
    }

    /// The middle of ``SimulatedFloor/demo()``'s 40 m × 20 m floor.
    static let demoFloorCentre = PlanPoint(x: 20, y: 10)
    /// About what a real Wi-Fi scan of the 2.4 and 5 GHz channels takes.
    static let defaultWiFiScanDuration: Duration = .milliseconds(800)

    /// The trajectory as `--sim-trajectory` takes it.
    var trajectoryText: String {
        func point(_ point: PlanPoint) -> String { "\(point.x),\(point.y)" }
        switch trajectory {
        case .standing(let spot): return point(spot)
        case .walking(let points, let speed): return points.map(point).joined(separator: ";") + "@\(speed)"
        }
    }

    init(
        trajectory: Trajectory = .standing(demoFloorCentre), seed: UInt64, advertisingRate: Double? = nil,
        wifiScanDuration: Duration = defaultWiFiScanDuration, followSurvey: Bool = true, tagTrajectories: [Trajectory] = [],
        tagStart: Date = Date(timeIntervalSince1970: 0), receiverGain: Int = 0
    ) {
        self.tagStart = tagStart
        self.receiverGain = receiverGain
        self.trajectory = trajectory
        self.seed = seed
        self.advertisingRate = advertisingRate
        self.wifiScanDuration = wifiScanDuration
        self.followSurvey = followSurvey
        self.tagTrajectories = tagTrajectories
    }
}
