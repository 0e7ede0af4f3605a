import ScanContract

/// A `scanner_placement` row, read as a ``ScannerPlacement`` and written the same way on either
/// database.
struct ScannerPlacementRecord {
    var scannerID: String
    var floorID: Int64
    var x: Double
    var y: Double
    var height: Double
    var pathLossExponent: Double
    var receiveOffsetOverride: Double?
    var estimatedReceiveOffset: Double?
    var calibrationSamples: Int

    /// A new placement keeps the estimate the scanner had (`kept`), since moving a receiver
    /// does not change how it reads.
    init(_ scannerID: ScannerID, _ new: NewScannerPlacement, kept: ScannerPlacementRecord?) {
        self.scannerID = scannerID.rawValue
        floorID = new.floorID
        x = new.x
        y = new.y
        height = new.height ?? NewScannerPlacement.defaultHeight
        pathLossExponent = new.pathLossExponent ?? NewScannerPlacement.defaultPathLossExponent
        receiveOffsetOverride = new.receiveOffsetOverride
        estimatedReceiveOffset = kept?.estimatedReceiveOffset
        calibrationSamples = kept?.calibrationSamples ?? 0
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a scanner ID switchd would not have stored.
    func placement() throws -> ScannerPlacement {
        ScannerPlacement(
            scannerID: try storedScannerID(scannerID), floorID: floorID, x: x, y: y, height: height,
            pathLossExponent: pathLossExponent, receiveOffsetOverride: receiveOffsetOverride,
            estimatedReceiveOffset: estimatedReceiveOffset, calibrationSamples: calibrationSamples
        )
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        scannerID = try row.string("scanner_id")
        floorID = try row.int64("floor_id")
        x = try row.double("x")
        y = try row.double("y")
        height = try row.double("height")
        pathLossExponent = try row.double("path_loss_exponent")
        receiveOffsetOverride = try row.optionalDouble("receive_offset_override")
        estimatedReceiveOffset = try row.optionalDouble("estimated_receive_offset")
        calibrationSamples = try row.int("calibration_samples")
    }

    static let columns = """
        scanner_id, floor_id, x, y, height, path_loss_exponent, receive_offset_override, estimated_receive_offset, calibration_samples
        """

    /// Placements ordered by scanner ID; those of `floorID` when given.
    static func fetchAll(_ sql: any StoreTransaction, onFloor floorID: Int64? = nil) throws -> [ScannerPlacementRecord] {
        let rows = if let floorID {
            try sql.rows("SELECT \(columns) FROM scanner_placement WHERE floor_id = ? ORDER BY scanner_id", [.integer(floorID)])
        } else {
            try sql.rows("SELECT \(columns) FROM scanner_placement ORDER BY scanner_id", [])
        }
        return try rows.map(ScannerPlacementRecord.init(row:))
    }

    /// The scanner's placement, or nil when it is not placed.
    static func fetch(_ sql: any StoreTransaction, of scannerID: ScannerID) throws -> ScannerPlacementRecord? {
        try sql.row("SELECT \(columns) FROM scanner_placement WHERE scanner_id = ?", [.text(scannerID.rawValue)]).map(ScannerPlacementRecord.init(row:))
    }

    /// Whether the scanner with this stored ID is placed.
    static func isPlaced(_ sql: any StoreTransaction, _ scannerID: String) throws -> Bool {
        try sql.row("SELECT scanner_id FROM scanner_placement WHERE scanner_id = ?", [.text(scannerID)]) != nil
    }

    /// Stores the placement, replacing the scanner's earlier one.
    func upsert(_ sql: any StoreTransaction) throws {
        try sql.execute("""
            INSERT INTO scanner_placement (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (scanner_id) DO UPDATE SET floor_id = excluded.floor_id, x = excluded.x, y = excluded.y, height = excluded.height,
                path_loss_exponent = excluded.path_loss_exponent, receive_offset_override = excluded.receive_offset_override,
                estimated_receive_offset = excluded.estimated_receive_offset, calibration_samples = excluded.calibration_samples
            """, [
                .text(scannerID), .integer(floorID), .real(x), .real(y), .real(height), .real(pathLossExponent),
                StoreValue(receiveOffsetOverride), StoreValue(estimatedReceiveOffset), StoreValue(calibrationSamples),
            ])
    }

    /// Writes the receive offset estimated from the scanner's sightings.
    func updateEstimate(_ sql: any StoreTransaction) throws {
        try sql.execute(
            "UPDATE scanner_placement SET estimated_receive_offset = ?, calibration_samples = ? WHERE scanner_id = ?",
            [StoreValue(estimatedReceiveOffset), StoreValue(calibrationSamples), .text(scannerID)]
        )
    }
}
