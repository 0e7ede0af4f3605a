/// One 802.11 information element (IEEE 802.11-2020, §9.4.2.1): element ID, length, information.
public struct InformationElement: Hashable, Sendable {
    /// Element ID.
    public var id: UInt8
    public var data: [UInt8]

    /// Every element in `bytes`, in order. An element whose length runs past the end throws
    /// `WireError` at its ID byte (the bounds check iw's IE walk does).
    public static func parse(_ bytes: [UInt8], origin: Int = 0) throws(WireError) -> [InformationElement] {
        var reader = ByteReader(bytes, origin: origin)
        var elements: [InformationElement] = []
        while !reader.isAtEnd {
            let start = reader.offset
            let id = try reader.u8("element ID")
            let length = Int(try reader.u8("element length"))
            guard length <= reader.remaining else {
                throw WireError(offset: start, reason: "element \(id) length \(length) runs past the end (\(reader.remaining) bytes left)")
            }
            elements.append(InformationElement(id: id, data: try reader.take(length, "element \(id)")))
        }
        return elements
    }
}
