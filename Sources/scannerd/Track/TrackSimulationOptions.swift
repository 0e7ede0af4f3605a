import ArgumentParser
import Positioning

/// `scannerd track --radio simulated`: a fixed scanner standing on the demo floor, hearing its
/// beacons and the tags walking it.
struct TrackSimulationOptions: ParsableArguments {
    @Option(name: .customLong("sim-position"), help: "Where the simulated fixed scanner stands: \"x,y\". Default: the floor's centre.", transform: parseTrajectory)
    var position: Trajectory?

    @Option(
        name: .customLong("sim-tag"),
        help: "A tag walking the simulated floor: \"x,y\" or \"x,y;x,y;…@metresPerSecond\", walked from 1970 so every simulated scanner hears it at the same place; repeat for more (iBeacon major 2, minor 1, 2, …).",
        transform: parseTrajectory
    )
    var tags: [Trajectory] = []

    @Option(name: .customLong("sim-seed"), help: "Seed of the simulated radio noise (default: random, logged).")
    var seed: UInt64?

    var settings: SimulationSettings {
        SimulationSettings(
            trajectory: position ?? .standing(SimulationSettings.demoFloorCentre), seed: seed ?? UInt64.random(in: 0...UInt64.max),
            followSurvey: false, tagTrajectories: tags
        )
    }
}
