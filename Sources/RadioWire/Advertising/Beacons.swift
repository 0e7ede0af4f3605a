#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An iBeacon frame (Apple's Proximity Beacon specification): manufacturer data of company 0x004C
/// holding type 0x02, length 0x15, proximity UUID (16), major (u16 BE), minor (u16 BE) and the
/// measured power at 1 m (i8, dBm).
public struct IBeacon: Hashable, Sendable {
    /// Proximity UUID, major and minor: the beacon's identity (the contract's `BeaconID`).
    public var uuid: UUID
    public var major: UInt16
    public var minor: UInt16
    /// Measured Power: the calibrated RSSI at 1 m, dBm.
    public var measuredPower: Int

    /// Nil when `data` is not an iBeacon (another company or type); throws when it announces an
    /// iBeacon (company, type, length) but the bytes do not match that length.
    public init?(_ data: ManufacturerSpecificData) throws(WireError) {
        var reader = ByteReader(data.data, origin: data.dataOffset)
        guard data.companyID == appleCompanyID, data.data.count >= 2,
              try reader.u8("iBeacon type") == iBeaconType, try reader.u8("iBeacon length") == iBeaconLength else { return nil }
        guard reader.remaining == Int(iBeaconLength) else {
            throw reader.error("iBeacon length is \(iBeaconLength) but \(reader.remaining) bytes follow")
        }
        uuid = try reader.uuid("proximity UUID")
        major = try reader.u16be("major")
        minor = try reader.u16be("minor")
        measuredPower = Int(try reader.i8("measured power"))
    }
}

/// An Eddystone-UID frame (Google's Eddystone specification): service data 0xFEAA, frame type
/// 0x00, ranging data (TX power at 0 m, i8 dBm), 10-byte namespace, 6-byte instance, 2 reserved
/// bytes (which some beacons leave out).
public struct EddystoneUID: Hashable, Sendable {
    /// Calibrated TX power at 0 m, dBm.
    public var txPower: Int
    public var namespace: [UInt8]
    public var instance: [UInt8]

    /// Nil when `data` is not an Eddystone-UID frame; throws when it is one but is cut short or too long.
    public init?(_ data: ServiceData16) throws(WireError) {
        var reader = ByteReader(data.data, origin: data.dataOffset)
        guard data.uuid == eddystoneServiceUUID, !data.data.isEmpty, try reader.u8("frame type") == eddystoneUIDFrameType else { return nil }
        txPower = Int(try reader.i8("ranging data"))
        namespace = try reader.take(10, "namespace")
        instance = try reader.take(6, "instance")
        guard reader.remaining == 0 || reader.remaining == 2 else {
            throw reader.error("Eddystone-UID has \(reader.remaining) bytes after the instance (0 or 2 expected)")
        }
    }
}

/// An AltBeacon frame (AltBeacon specification v1.0): manufacturer data of any company holding the
/// beacon code 0xBEAC (big-endian), a 20-byte beacon ID, the reference RSSI at 1 m (i8 dBm) and a
/// manufacturer-reserved byte.
public struct AltBeacon: Hashable, Sendable {
    public var companyID: UInt16
    /// Beacon ID: 20 bytes, commonly a 16-byte organisational unit then two 2-byte values.
    public var beaconID: [UInt8]
    /// Reference RSSI at 1 m, dBm.
    public var referenceRSSI: Int
    public var manufacturerReserved: UInt8

    /// Nil when `data` does not start with the beacon code or is not 24 bytes long (two bytes are
    /// too weak a sign to call other vendors' data broken).
    public init?(_ data: ManufacturerSpecificData) throws(WireError) {
        var reader = ByteReader(data.data, origin: data.dataOffset)
        guard data.data.count == 24, try reader.u16be("beacon code") == altBeaconCode else { return nil }
        companyID = data.companyID
        beaconID = try reader.take(20, "beacon ID")
        referenceRSSI = Int(try reader.i8("reference RSSI"))
        manufacturerReserved = try reader.u8("manufacturer reserved")
    }
}

/// A beacon frame recognised in advertising data.
public enum BeaconFrame: Hashable, Sendable {
    case iBeacon(IBeacon)
    case eddystoneUID(EddystoneUID)
    case altBeacon(AltBeacon)

    /// The beacon frames among `structures`, found by AD type and the vendors' identifiers (never
    /// by searching for byte patterns). Throws when a structure claims a beacon format but breaks it.
    public static func all(in structures: [ADStructure]) throws(WireError) -> [BeaconFrame] {
        var frames: [BeaconFrame] = []
        for structure in structures {
            if let manufacturer = try ManufacturerSpecificData(structure) {
                if let beacon = try IBeacon(manufacturer) { frames.append(.iBeacon(beacon)) }
                else if let beacon = try AltBeacon(manufacturer) { frames.append(.altBeacon(beacon)) }
            } else if let service = try ServiceData16(structure), let beacon = try EddystoneUID(service) {
                frames.append(.eddystoneUID(beacon))
            }
        }
        return frames
    }
}

extension ByteReader {
    /// A 16-byte UUID in network (big-endian) order, as iBeacon sends it.
    mutating func uuid(_ field: String) throws(WireError) -> UUID {
        let b = try take(16, field)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
