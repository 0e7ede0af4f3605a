import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Positioning

/// `scannerd track --radio simulated`: a fixed scanner standing on the demo floor, hearing its
/// beacons and the tags walking it.
struct TrackSimulationOptions: ParsableArguments {
    @Option(name: .customLong("sim-position"), help: "Where the simulated fixed scanner stands: \"x,y\". Default: the floor's centre.", transform: parseTrajectory)
    var position: Trajectory?

    @OptionGroup var tags: SimulatedTagOptions

    @Option(name: .customLong("sim-seed"), help: "Seed of the simulated radio noise (default: random, logged).")
    var seed: UInt64?

    var settings: SimulationSettings {
        SimulationSettings(
            trajectory: position ?? .standing(SimulationSettings.demoFloorCentre), seed: seed ?? UInt64.random(in: 0...UInt64.max),
            followSurvey: false, tagTrajectories: tags.tags,
            tagStart: Date(timeIntervalSince1970: tags.start), receiverGain: tags.receiverGain
        )
    }
}
