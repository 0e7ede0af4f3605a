import GRDB
import ScanContract

/// A `scanner_placement` row, read as a ``ScannerPlacement``.
struct ScannerPlacementRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "scanner_placement"

    var scannerID: String
    var floorID: Int64
    var x: Double
    var y: Double
    var height: Double
    var pathLossExponent: Double
    var receiveOffsetOverride: Double?
    var estimatedReceiveOffset: Double?
    var calibrationSamples: Int

    enum CodingKeys: String, CodingKey {
        case scannerID = "scanner_id", floorID = "floor_id", x, y, height, pathLossExponent = "path_loss_exponent"
        case receiveOffsetOverride = "receive_offset_override", estimatedReceiveOffset = "estimated_receive_offset"
        case calibrationSamples = "calibration_samples"
    }

    enum Columns {
        static let scannerID = Column(CodingKeys.scannerID)
        static let floorID = Column(CodingKeys.floorID)
        static let estimatedReceiveOffset = Column(CodingKeys.estimatedReceiveOffset)
        static let calibrationSamples = Column(CodingKeys.calibrationSamples)
    }

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
}
