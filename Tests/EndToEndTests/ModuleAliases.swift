import ScanContract

/// Foundation has a `Measurement` too; in this module the name means the radio reading.
typealias Measurement = ScanContract.Measurement
