import Foundation

/// What one scannerd run has counted since it started, as it reports it to switchd
/// (`PUT /v1/scanners/{id}/counters`). Counts only grow within a run; a new `run` starts them
/// again from zero, which is how switchd tells a restart from a report it has already seen.
public struct ScannerCounters: Codable, Sendable, Equatable {
    /// Chosen at random when scannerd starts.
    public var run: UUID
    /// BLE advertisements heard.
    public var advertisements: Int
    /// Wi-Fi scans completed.
    public var wifiScans: Int
    /// Radio frames or reports that could not be decoded and were skipped.
    public var parseErrors: Int
    /// Times a radio failed and was brought back.
    public var radioRecoveries: Int
    /// Uploads that failed and were tried again.
    public var uploadRetries: Int
    /// Sealed batches waiting in the spool for switchd's receipt, at the time of the report.
    public var spoolDepth: Int

    public init(
        run: UUID, advertisements: Int = 0, wifiScans: Int = 0, parseErrors: Int = 0,
        radioRecoveries: Int = 0, uploadRetries: Int = 0, spoolDepth: Int = 0
    ) {
        self.run = run
        self.advertisements = advertisements
        self.wifiScans = wifiScans
        self.parseErrors = parseErrors
        self.radioRecoveries = radioRecoveries
        self.uploadRetries = uploadRetries
        self.spoolDepth = spoolDepth
    }

    /// Every count with its JSON name, in a fixed order.
    public var counts: KeyValuePairs<String, Int> {
        [
            "advertisements": advertisements, "wifiScans": wifiScans, "parseErrors": parseErrors,
            "radioRecoveries": radioRecoveries, "uploadRetries": uploadRetries, "spoolDepth": spoolDepth,
        ]
    }

    /// Throws ``ValidationError`` naming the first negative count.
    public func validate() throws {
        for (field, count) in counts where count < 0 {
            throw ValidationError(field: field, reason: "must be 0 or more, got \(count)")
        }
    }
}
