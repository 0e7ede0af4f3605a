import ArgumentParser
import Positioning

/// `--sim-tag` and `--sim-receiver-gain`: tags walking the simulated floor, heard by `scannerd
/// track` and by `scannerd run` on the simulated radio, and how its receiver reads them.
struct SimulatedTagOptions: ParsableArguments {
    @Option(
        name: .customLong("sim-tag"),
        help: "A tag walking the simulated floor: \"x,y\" or \"x,y;x,y;…@metresPerSecond\", walked from 1970 so every simulated scanner hears it at the same place; repeat for more (iBeacon major 2, minor 1, 2, …).",
        transform: parseTrajectory
    )
    var tags: [Trajectory] = []

    @Option(
        name: .customLong("sim-receiver-gain"),
        help: "dB the simulated BLE receiver reads above the path-loss model (its receive offset, as switchd estimates it, is the negative)."
    )
    var receiverGain: Int = 0
}
