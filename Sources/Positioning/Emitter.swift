#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// A radio a scanner can hear and a fingerprint can hold: a Wi-Fi access point or an iBeacon.
///
/// Text (and JSON) form: `ap:aa:bb:cc:dd:ee:ff` or `beacon:<uuid>/<major>/<minor>`, so a radio map
/// can key its readings by emitter in a plain JSON object.
public enum Emitter: Hashable, Sendable, Comparable, TextCodable {
    case accessPoint(BSSID)
    case beacon(BeaconID)

    public init(_ text: String) throws(FieldError) {
        if text.hasPrefix("ap:") {
            self = .accessPoint(try BSSID(String(text.dropFirst(3))))
        } else if text.hasPrefix("beacon:") {
            do {
                self = .beacon(try BeaconID(parsing: text.dropFirst(7)))
            } catch {
                throw FieldError("must be beacon:<uuid>/<major>/<minor> with major and minor 0…65535, got \"\(text)\"")
            }
        } else {
            throw FieldError("must start with \"ap:\" or \"beacon:\", got \"\(text)\"")
        }
    }

    public var description: String {
        switch self {
        case .accessPoint(let bssid): "ap:\(bssid)"
        case .beacon(let beacon): "beacon:\(beacon)"
        }
    }

    public var kind: RadioKind {
        switch self {
        case .accessPoint: .wifi
        case .beacon: .ble
        }
    }

    public static func < (lhs: Emitter, rhs: Emitter) -> Bool { lhs.description < rhs.description }
}

extension ScanContract.Measurement {
    /// The radio this reading heard.
    public var emitter: Emitter {
        switch observation {
        case .wifi(let wifi): .accessPoint(wifi.bssid)
        case .ble(let ble): .beacon(ble.beacon)
        }
    }
}
