import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Positioning
import ScanContract

/// The simulated floor's radio environment as the scanner experiences it: where the scanner is,
/// and the seeded noise of every reading. BLE and Wi-Fi draw from separate generators, so the
/// same seed gives the same readings of each however the two interleave.
///
/// `time` is the simulation's clock (the trajectory and every pace follow it); `wallClock`
/// stamps the readings.
actor SimulatedAir {
    let floor: SimulatedFloor
    nonisolated let time: ElapsedTime
    nonisolated let wallClock: @Sendable () -> Date
    private let trajectory: Trajectory
    /// dB the BLE receiver reads above the path-loss model (``SimulationSettings/receiverGain``).
    private let receiverGain: Int
    private var standing: PlanPoint?
    private var bleGenerator: SeededGenerator
    private var wifiGenerator: SeededGenerator

    init(
        floor: SimulatedFloor, trajectory: Trajectory, seed: UInt64, receiverGain: Int = 0, clock: any Clock<Duration> = ContinuousClock(),
        wallClock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.floor = floor
        self.trajectory = trajectory
        self.receiverGain = receiverGain
        time = ElapsedTime(clock)
        self.wallClock = wallClock
        var seeds = SeededGenerator(seed: seed)
        bleGenerator = SeededGenerator(seed: seeds.next())
        wifiGenerator = SeededGenerator(seed: seeds.next())
    }

    /// The scanner's position now: where it was put with ``stand(at:)``, else along its trajectory.
    func position() -> PlanPoint {
        standing ?? trajectory.position(after: time.now.seconds)
    }

    /// Puts the scanner at `point` (someone carried it there); nil resumes the trajectory.
    func stand(at point: PlanPoint?) {
        standing = point
    }

    /// The advertisements of the given transmitters (the floor's beacons, then its moving tags,
    /// by index) sent at the given times, as heard from where the scanner is now; a tag is where
    /// its trajectory puts it at the time it sent. Those too weak to be heard are left out.
    func advertisements(_ sent: [(beacon: Int, time: Date)]) -> [RadioReading] {
        let here = position()
        return sent.compactMap { index, time in
            let (ble, model, from): (BLEObservation, PathLossModel, PlanPoint)
            if index < floor.beacons.count {
                let beacon = floor.beacons[index]
                (ble, model, from) = (beacon.ble, beacon.pathLoss, beacon.position)
            } else {
                let tag = floor.tags[index - floor.beacons.count]
                (ble, model, from) = (tag.ble, tag.pathLoss, tag.position(at: time))
            }
            return Reception.sample(model, from: from, at: here, sensitivity: floor.sensitivity, gain: receiverGain, using: &bleGenerator)
                .map { RadioReading(observation: .ble(ble), rssi: $0, time: time) }
        }
    }

    /// Every access point heard from where the scanner is now.
    func wifiScanResults() -> [RadioReading] {
        let here = position()
        let time = wallClock()
        return floor.accessPoints.compactMap { accessPoint in
            Reception.sample(
                accessPoint.pathLoss, from: accessPoint.position, at: here, sensitivity: floor.sensitivity,
                using: &wifiGenerator
            ).map { RadioReading(observation: .wifi(accessPoint.wifi), rssi: $0, time: time) }
        }
    }
}
