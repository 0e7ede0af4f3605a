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
/// same seed gives the same readings of each however the two interleave. A moving tag is heard
/// from its start on, advertising on a grid of the wall clock (the middle of each interval from
/// its start), each advertisement's noise drawn from the seed and its number: with the same seed
/// and the same start, a scanner hears the same tag readings whenever the process started and
/// however busy the machine is.
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
    /// Where each tag advertisement's noise comes from, with its number.
    private let tagSeed: UInt64

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
        tagSeed = seeds.next()
    }

    /// When transmitter `index` (the floor's beacons, then its moving tags) first advertises at
    /// or after `date`: for a tag, the next point of its grid, never before its start; nil for a
    /// beacon, whose phase is free.
    nonisolated func firstAdvertisement(of index: Int, after date: Date) -> Date? {
        guard index >= floor.beacons.count, index - floor.beacons.count < floor.tags.count else { return nil }
        let tag = floor.tags[index - floor.beacons.count]
        guard tag.advertisingRate > 0 else { return nil }
        let number = max(0, (date.timeIntervalSince(tag.start) * tag.advertisingRate - 0.5).rounded(.up))
        return tag.start.addingTimeInterval((number + 0.5) / tag.advertisingRate)
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
            if index < floor.beacons.count {
                let beacon = floor.beacons[index]
                return Reception.sample(
                    beacon.pathLoss, from: beacon.position, at: here, sensitivity: floor.sensitivity, gain: receiverGain, using: &bleGenerator
                ).map { RadioReading(observation: .ble(beacon.ble), rssi: $0, time: time) }
            }
            let tagIndex = index - floor.beacons.count
            let tag = floor.tags[tagIndex]
            guard time >= tag.start else { return nil }
            var noise = tagNoise(tag: tagIndex, number: Int64((time.timeIntervalSince(tag.start) * tag.advertisingRate).rounded(.down)))
            return Reception.sample(tag.pathLoss, from: tag.position(at: time), at: here, sensitivity: floor.sensitivity, gain: receiverGain, using: &noise)
                .map { RadioReading(observation: .ble(tag.ble), rssi: $0, time: time) }
        }
    }

    /// The generator of one tag advertisement's noise: seeded by a scramble of the air's tag
    /// seed, the tag and the advertisement's number, so neighbouring advertisements' streams do
    /// not overlap.
    private func tagNoise(tag: Int, number: Int64) -> SeededGenerator {
        var scramble = SeededGenerator(seed: tagSeed ^ (UInt64(tag) << 48) ^ UInt64(bitPattern: number))
        return SeededGenerator(seed: scramble.next())
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
