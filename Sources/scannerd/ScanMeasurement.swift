import ScanContract

/// Foundation has a `Measurement` too; in scannerd the word always means a radio reading.
typealias Measurement = ScanContract.Measurement
