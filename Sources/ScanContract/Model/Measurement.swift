#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which radio a measurement came from.
public enum RadioKind: String, Codable, Sendable, CaseIterable {
    case wifi
    case ble
}

/// One access point heard in a Wi-Fi scan.
public struct WiFiObservation: Hashable, Sendable {
    public var bssid: BSSID
    /// Empty for a hidden network.
    public var ssid: String
    public var frequencyMHz: Int

    public init(bssid: BSSID, ssid: String, frequencyMHz: Int) {
        self.bssid = bssid
        self.ssid = ssid
        self.frequencyMHz = frequencyMHz
    }
}

/// One iBeacon advertisement.
public struct BLEObservation: Hashable, Sendable {
    public var address: BLEAddress
    public var beacon: BeaconID
    /// The beacon's advertised measured power: RSSI at 1 m, in dBm.
    public var txPower: Int

    public init(address: BLEAddress, beacon: BeaconID, txPower: Int) {
        self.address = address
        self.beacon = beacon
        self.txPower = txPower
    }
}

public enum Observation: Hashable, Sendable {
    case wifi(WiFiObservation)
    case ble(BLEObservation)

    public var kind: RadioKind {
        switch self {
        case .wifi: .wifi
        case .ble: .ble
        }
    }
}

/// One signal-strength reading, as a scanner produced it.
///
/// JSON (flat): `{"id", "kind", "time", "rssi", "scan", …}` plus `bssid, ssid, frequencyMHz` for Wi-Fi
/// or `address, uuid, major, minor, txPower` for BLE. `kind` may be left out when the fields make it
/// plain; `id` and `scan` may be left out by simple clients (a fresh ID and scan 0 are assumed).
public struct Measurement: Hashable, Sendable {
    /// Chosen by the scanner when the reading is made; never reused.
    public var id: UUID
    public var time: Date
    /// Received signal strength, dBm.
    public var rssi: Int
    /// Which scan cycle of its switch revision this reading belongs to (0, 1, 2, …); survey
    /// switches stop after a number of scans.
    public var scan: Int
    public var observation: Observation

    public init(id: UUID = UUID(), time: Date, rssi: Int, scan: Int = 0, observation: Observation) {
        self.id = id
        self.time = time
        self.rssi = rssi
        self.scan = scan
        self.observation = observation
    }

    public var kind: RadioKind { observation.kind }

    public static let rssiRange = -127...20
    public static let txPowerRange = -127...20
    public static let frequencyRangeMHz = 2_400...71_000
    public static let maxSSIDBytes = 32

    /// Checks every value against its physical range; the error names the field.
    public func validate() throws(ValidationError) {
        guard Self.rssiRange.contains(rssi) else {
            throw ValidationError(field: "rssi", reason: "must be between \(Self.rssiRange.lowerBound) and \(Self.rssiRange.upperBound) dBm, got \(rssi)")
        }
        guard scan >= 0 else {
            throw ValidationError(field: "scan", reason: "must be 0 or more, got \(scan)")
        }
        let seconds = time.timeIntervalSince1970
        guard seconds >= 946_684_800, seconds < 4_102_444_800 else {
            throw ValidationError(field: "time", reason: "must be between 2000 and 2100")
        }
        switch observation {
        case .wifi(let wifi):
            guard Self.frequencyRangeMHz.contains(wifi.frequencyMHz) else {
                throw ValidationError(field: "frequencyMHz", reason: "must be a Wi-Fi channel frequency between \(Self.frequencyRangeMHz.lowerBound) and \(Self.frequencyRangeMHz.upperBound) MHz, got \(wifi.frequencyMHz)")
            }
            guard wifi.ssid.utf8.count <= Self.maxSSIDBytes else {
                throw ValidationError(field: "ssid", reason: "must be at most \(Self.maxSSIDBytes) bytes, got \(wifi.ssid.utf8.count)")
            }
        case .ble(let ble):
            guard Self.txPowerRange.contains(ble.txPower) else {
                throw ValidationError(field: "txPower", reason: "must be between \(Self.txPowerRange.lowerBound) and \(Self.txPowerRange.upperBound) dBm, got \(ble.txPower)")
            }
        }
    }
}

extension Measurement: Codable {
    typealias CodingKeys = MeasurementField.Key

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        time = try c.decode(Date.self, forKey: .time)
        id = try c.decodeIfPresent(UUID.self, forKey: .id) ?? .timeOrdered(at: time, random: UUID().uuid)
        rssi = try c.decode(Int.self, forKey: .rssi)
        scan = try c.decodeIfPresent(Int.self, forKey: .scan) ?? 0
        let kind: RadioKind
        if let given = try c.decodeIfPresent(RadioKind.self, forKey: .kind) {
            kind = given
        } else if c.contains(.bssid) {
            kind = .wifi
        } else if c.contains(.uuid) {
            kind = .ble
        } else {
            throw DecodingError.keyNotFound(CodingKeys.kind, .init(
                codingPath: c.codingPath,
                debugDescription: "a measurement needs \"kind\" (wifi or ble), or the bssid of a Wi-Fi or the uuid of a BLE reading"
            ))
        }
        switch kind {
        case .wifi:
            observation = .wifi(WiFiObservation(
                bssid: try c.decode(BSSID.self, forKey: .bssid),
                ssid: try c.decodeIfPresent(String.self, forKey: .ssid) ?? "",
                frequencyMHz: try c.decode(Int.self, forKey: .frequencyMHz)
            ))
        case .ble:
            observation = .ble(BLEObservation(
                address: try c.decode(BLEAddress.self, forKey: .address),
                beacon: BeaconID(
                    uuid: try c.decode(UUID.self, forKey: .uuid),
                    major: try Self.decodeUInt16(c, .major),
                    minor: try Self.decodeUInt16(c, .minor)
                ),
                txPower: try c.decode(Int.self, forKey: .txPower)
            ))
        }
    }

    /// Decodes as a whole number and range-checks it here, so an out-of-range major or minor is
    /// reported against its field (Foundation reports a number that overflows the type as "not
    /// valid JSON", with no field).
    private static func decodeUInt16(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> UInt16 {
        let value = try c.decode(Int.self, forKey: key)
        guard let narrow = UInt16(exactly: value) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "must be a whole number from 0 to 65535, got \(value)")
        }
        return narrow
    }

    /// Writes ``forEachField(_:)``'s fields: the same list scannerd's spool writes its lines from.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try forEachField { key, value in
            switch value {
            case .integer(let number): try c.encode(number, forKey: key)
            case .string(let text): try c.encode(text, forKey: key)
            case .mac(let address): try c.encode(address, forKey: key)
            case .uuid(let uuid): try c.encode(uuid, forKey: key)
            case .time(let date): try c.encode(date, forKey: key)
            }
        }
    }
}
