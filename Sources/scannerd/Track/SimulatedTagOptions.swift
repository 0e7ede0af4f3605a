import ArgumentParser
import Positioning

/// `--sim-tag`, `--sim-tag-start` and `--sim-receiver-gain`: tags walking the simulated floor, heard by `scannerd
/// track` and by `scannerd run` on the simulated radio, and how its receiver reads them.
struct SimulatedTagOptions: ParsableArguments {
    @Option(
        name: .customLong("sim-tag"),
        help: "A tag walking the simulated floor: \"x,y\" or \"x,y;x,y;…@metresPerSecond\", walked from --sim-tag-start so every simulated scanner hears it at the same place; repeat for more (iBeacon major 2, minor 1, 2, …).",
        transform: parseTrajectory
    )
    var tags: [Trajectory] = []

    @Option(
        name: .customLong("sim-tag-start"),
        help: "When the tags are switched on and set off, seconds since 1970 (default 0). Every scanner given the same start and seed hears the same readings of them, whenever it started."
    )
    var start: Double = 0

    @Option(
        name: .customLong("sim-receiver-gain"),
        help: "dB the simulated BLE receiver reads above the path-loss model (its receive offset, as switchd estimates it, is the negative)."
    )
    var receiverGain: Int = 0
}
