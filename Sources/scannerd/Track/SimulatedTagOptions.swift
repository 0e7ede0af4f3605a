import ArgumentParser
import Positioning

/// `--sim-tag`: tags walking the simulated floor, heard by `scannerd track` and by `scannerd run`
/// on the simulated radio.
struct SimulatedTagOptions: ParsableArguments {
    @Option(
        name: .customLong("sim-tag"),
        help: "A tag walking the simulated floor: \"x,y\" or \"x,y;x,y;…@metresPerSecond\", walked from 1970 so every simulated scanner hears it at the same place; repeat for more (iBeacon major 2, minor 1, 2, …).",
        transform: parseTrajectory
    )
    var tags: [Trajectory] = []
}
