/// When a battery is low (`--battery-low-millivolts`): below ``millivolts`` raises `batteryLow`
/// once; the battery must read above ``millivolts`` plus ``hysteresis`` before another crossing
/// raises it again, so a voltage wavering around the threshold (it sags when the radio sends and
/// with the cold) raises one event, not one a report.
package struct BatteryLowThreshold: Hashable, Sendable {
    package var millivolts: Int
    package var hysteresis: Int

    package static let defaultMillivolts = 2500
    /// A coin cell's reading moves by tens of millivolts between reports; 100 mV is clear of that.
    package static let defaultHysteresis = 100

    package init(millivolts: Int = Self.defaultMillivolts, hysteresis: Int = Self.defaultHysteresis) {
        self.millivolts = millivolts
        self.hysteresis = hysteresis
    }

    /// Whether the battery is low after reading `battery` mV, given whether it was (`wasLow`;
    /// false when nothing was known): below the threshold it is, above it plus the hysteresis it
    /// is not, in between it stays as it was; an unmeasured battery leaves it as it was.
    package func isLow(after battery: Int?, wasLow: Bool) -> Bool {
        guard let battery else { return wasLow }
        if battery < millivolts { return true }
        if battery > millivolts + hysteresis { return false }
        return wasLow
    }
}
