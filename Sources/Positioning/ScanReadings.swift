#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// One scan's readings as the ``Locator`` takes them: per access point the RSSI of its reading
/// (the last, when one was heard twice), per beacon every RSSI sample in the order heard, and
/// the measured power each beacon last advertised.
public struct ScanReadings: Sendable {
    public var wifi: [Emitter: Double] = [:]
    public var ble: [Emitter: [Double]] = [:]
    public var advertisedPower: [Emitter: Int] = [:]

    public init(_ measurements: [ScanContract.Measurement]) {
        for measurement in measurements {
            switch measurement.observation {
            case .wifi(let observation):
                wifi[.accessPoint(observation.bssid)] = Double(measurement.rssi)
            case .ble(let observation):
                ble[.beacon(observation.beacon), default: []].append(Double(measurement.rssi))
                advertisedPower[.beacon(observation.beacon)] = observation.txPower
            }
        }
    }
}

extension Locator {
    /// ``locate(wifi:ble:advertisedPower:at:)`` on one scan's readings.
    public mutating func locate(_ scan: ScanReadings, at time: Date) -> LocatedPosition? {
        locate(wifi: scan.wifi, ble: scan.ble, advertisedPower: scan.advertisedPower, at: time)
    }
}
