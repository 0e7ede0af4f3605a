/// What one fixed scanner heard of a tag over a short window, with where that scanner stands and
/// how its receiver reads.
public struct FixedScannerHearing: Hashable, Sendable {
    /// Names the scanner to the caller; positioning does not read it.
    public var scanner: String
    public var floorID: Int64
    /// Metres on the floor's plan; `height` above that floor.
    public var x: Double
    public var y: Double
    public var height: Double
    /// dB added to this receiver's RSSI to match the reference receiver the tag's power is given for.
    public var receiveOffset: Double
    /// Log-distance exponent of the space around this scanner.
    public var pathLossExponent: Double
    /// The window's RSSI, dBm, as the scanner reported it (the figure ``TagRSSIStatistic`` names).
    public var rssi: Double

    public init(
        scanner: String, floorID: Int64, x: Double, y: Double, height: Double, receiveOffset: Double, pathLossExponent: Double, rssi: Double
    ) {
        self.scanner = scanner
        self.floorID = floorID
        self.x = x
        self.y = y
        self.height = height
        self.receiveOffset = receiveOffset
        self.pathLossExponent = pathLossExponent
        self.rssi = rssi
    }

    /// The RSSI with the receive offset applied: what the reference receiver would have read.
    public var correctedRSSI: Double { rssi + receiveOffset }
}
