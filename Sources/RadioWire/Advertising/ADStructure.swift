/// One AD structure of advertising or scan response data (Core Vol 3, Part C, §11): a length
/// octet, an AD type octet and length − 1 octets of data.
public struct ADStructure: Hashable, Sendable {
    /// AD Type (Assigned Numbers).
    public var type: UInt8
    /// AD Data.
    public var data: [UInt8]
    /// Offset of `data`'s first byte in the buffer decoding started from.
    public var dataOffset: Int

    public init(type: UInt8, data: [UInt8], dataOffset: Int = 0) {
        self.type = type
        self.data = data
        self.dataOffset = dataOffset
    }

    /// All AD structures in `bytes`, in order. A zero length octet ends the data (the rest is
    /// padding, as the Core spec allows); a structure whose length runs past the end throws
    /// `WireError` at its length octet. `origin` is the offset of `bytes` in the caller's buffer.
    public static func parse(_ bytes: [UInt8], origin: Int = 0) throws(WireError) -> [ADStructure] {
        var reader = ByteReader(bytes, origin: origin)
        var structures: [ADStructure] = []
        while !reader.isAtEnd {
            let lengthOffset = reader.offset
            let length = Int(try reader.u8("AD length"))
            if length == 0 { break }
            guard length <= reader.remaining else {
                throw WireError(offset: lengthOffset, reason: "AD structure length \(length) runs past the end (\(reader.remaining) bytes left)")
            }
            let type = try reader.u8("AD type")
            let dataOffset = reader.offset
            structures.append(ADStructure(type: type, data: try reader.take(length - 1, "AD data"), dataOffset: dataOffset))
        }
        return structures
    }
}

/// Manufacturer Specific Data (AD type 0xFF; Core Supplement Part A, §1.4): a company identifier
/// and the company's bytes.
public struct ManufacturerSpecificData: Hashable, Sendable {
    /// Company Identifier Code (sent little-endian).
    public var companyID: UInt16
    /// The bytes after the company identifier.
    public var data: [UInt8]
    public var dataOffset: Int

    /// Nil when `structure` is another AD type; throws when it is too short for a company identifier.
    public init?(_ structure: ADStructure) throws(WireError) {
        guard let (companyID, data, dataOffset) = try structure.leadingUInt16(EIR_MANUFACTURER_DATA, "Company Identifier Code") else { return nil }
        (self.companyID, self.data, self.dataOffset) = (companyID, data, dataOffset)
    }
}

/// Service Data for a 16-bit service UUID (AD type 0x16; Core Supplement Part A, §1.11).
public struct ServiceData16: Hashable, Sendable {
    /// The 16-bit service UUID (sent little-endian).
    public var uuid: UInt16
    public var data: [UInt8]
    public var dataOffset: Int

    /// Nil when `structure` is another AD type; throws when it is too short for a UUID.
    public init?(_ structure: ADStructure) throws(WireError) {
        guard let (uuid, data, dataOffset) = try structure.leadingUInt16(EIR_SERVICE_DATA, "16-bit Service UUID") else { return nil }
        (self.uuid, self.data, self.dataOffset) = (uuid, data, dataOffset)
    }
}

extension ADStructure {
    /// For a structure of `type`: its first two bytes as a little-endian value (`field` names it in
    /// an error), the bytes after them and their offset. Nil for another type.
    func leadingUInt16(_ type: UInt8, _ field: String) throws(WireError) -> (UInt16, [UInt8], Int)? {
        guard self.type == type else { return nil }
        var reader = ByteReader(data, origin: dataOffset)
        let value = try reader.u16le(field)
        let offset = reader.offset
        return (value, reader.rest(), offset)
    }
}
