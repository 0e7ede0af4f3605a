/// Reads integers and byte runs from a buffer front to back, never past its end.
///
/// Every read checks the bytes that are left first and throws `WireError` (offset of the read,
/// what was being read, how many bytes it needed and had) instead of trapping. A reader made with
/// `reader(_:_:)` covers part of its parent and reports offsets in the parent's numbering, so an
/// error deep inside a nested structure still points into the original buffer.
public struct ByteReader: Sendable {
    private let bytes: ArraySlice<UInt8>
    private let origin: Int
    /// Index into `bytes` of the next byte to read.
    private var index: Int

    /// A reader over `bytes`; offsets in errors are `origin` plus the position in `bytes`.
    public init(_ bytes: [UInt8], origin: Int = 0) {
        self.init(slice: bytes[...], origin: origin - bytes.startIndex)
    }

    /// A reader over part of a buffer, without copying it; offsets in errors are the slice's own
    /// indices, positions in the whole buffer.
    public init(_ bytes: ArraySlice<UInt8>) {
        self.init(slice: bytes, origin: 0)
    }

    private init(slice: ArraySlice<UInt8>, origin: Int) {
        self.bytes = slice
        self.origin = origin
        self.index = slice.startIndex
    }

    /// Offset of the next byte, in the outermost buffer's numbering.
    public var offset: Int { origin + index }
    /// How many bytes are left to read.
    public var remaining: Int { bytes.endIndex - index }
    public var isAtEnd: Bool { index == bytes.endIndex }

    /// A `WireError` at the current offset (for decoders that find a value they cannot accept).
    public func error(_ reason: String) -> WireError {
        WireError(offset: offset, reason: reason)
    }

    /// Fails unless `count` bytes are left; `field` names what they were to hold.
    public func need(_ count: Int, _ field: String) throws(WireError) {
        guard count >= 0 else { throw error("\(field): negative length \(count)") }
        guard count <= remaining else {
            throw error("\(field) needs \(count) byte\(count == 1 ? "" : "s"), only \(remaining) left")
        }
    }

    public mutating func u8(_ field: String = "u8") throws(WireError) -> UInt8 {
        try need(1, field)
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func i8(_ field: String = "i8") throws(WireError) -> Int8 {
        Int8(bitPattern: try u8(field))
    }

    public mutating func u16le(_ field: String = "u16") throws(WireError) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(2, bigEndian: false, field))
    }

    public mutating func u16be(_ field: String = "u16") throws(WireError) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(2, bigEndian: true, field))
    }

    public mutating func u32le(_ field: String = "u32") throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(4, bigEndian: false, field))
    }

    public mutating func u32be(_ field: String = "u32") throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(4, bigEndian: true, field))
    }

    public mutating func u64le(_ field: String = "u64") throws(WireError) -> UInt64 {
        try integer(8, bigEndian: false, field)
    }

    public mutating func u64be(_ field: String = "u64") throws(WireError) -> UInt64 {
        try integer(8, bigEndian: true, field)
    }

    /// The next `count` bytes, copied.
    /// A 48-bit little-endian integer (a Bluetooth device address), read without a copy.
    public mutating func u48le(_ field: String = "u48") throws(WireError) -> UInt64 {
        try integer(6, bigEndian: false, field)
    }

    public mutating func take(_ count: Int, _ field: String = "bytes") throws(WireError) -> [UInt8] {
        try need(count, field)
        defer { index += count }
        return Array(bytes[index..<index + count])
    }

    public mutating func skip(_ count: Int, _ field: String = "bytes") throws(WireError) {
        try need(count, field)
        index += count
    }

    /// A reader over the next `count` bytes (consumed from this one), reporting offsets in this
    /// reader's numbering.
    public mutating func reader(_ count: Int, _ field: String = "bytes") throws(WireError) -> ByteReader {
        try need(count, field)
        defer { index += count }
        return ByteReader(slice: bytes[index..<index + count], origin: origin)
    }

    /// Everything that is left, copied; the reader ends at its end.
    public mutating func rest() -> [UInt8] {
        defer { index = bytes.endIndex }
        return Array(bytes[index...])
    }

    private mutating func integer(_ width: Int, bigEndian: Bool, _ field: String) throws(WireError) -> UInt64 {
        try need(width, field)
        defer { index += width }
        var value: UInt64 = 0
        for position in 0..<width {
            let byte = UInt64(bytes[index + position])
            value |= bigEndian ? byte << (8 * UInt64(width - 1 - position)) : byte << (8 * UInt64(position))
        }
        return value
    }
}
