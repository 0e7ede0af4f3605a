/// A zip archive read from memory through its central directory (PKWARE APPNOTE 4.3.12, 4.3.16):
/// enough for xlsx workbooks. Members may be stored (method 0) or deflated (method 8); ZIP64
/// and encryption are refused.
public struct ZipArchive {
    struct Entry {
        var name: String
        var method: UInt16
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    let bytes: [UInt8]
    /// Member name → entry.
    let entries: [String: Entry]

    /// Reads the end-of-central-directory record and every central-directory header. Throws
    /// when they are missing, overrun the data, or use ZIP64.
    init(_ bytes: [UInt8]) throws(FormatError) {
        self.bytes = bytes
        // The end record is 22 bytes plus a comment of up to 65,535 bytes.
        let lowest = max(0, bytes.count - 22 - 65_535)
        var end: Int?
        var position = bytes.count - 22
        while position >= lowest {
            if Self.uint32(bytes, position) == 0x0605_4B50 {
                end = position
                break
            }
            position -= 1
        }
        guard let end else { throw FormatError(description: "not a zip archive: no end-of-central-directory record") }
        let count = Int(Self.uint16(bytes, end + 10))
        let directoryOffset = Int(Self.uint32(bytes, end + 16))
        guard count != 0xFFFF, directoryOffset != 0xFFFF_FFFF else { throw FormatError(description: "ZIP64 archives are not supported") }
        var entries: [String: Entry] = [:]
        var offset = directoryOffset
        for index in 0..<count {
            guard offset + 46 <= bytes.count, Self.uint32(bytes, offset) == 0x0201_4B50 else {
                throw FormatError(description: "central directory entry \(index) at byte \(offset) is missing or cut short")
            }
            let nameLength = Int(Self.uint16(bytes, offset + 28))
            let extraLength = Int(Self.uint16(bytes, offset + 30))
            let commentLength = Int(Self.uint16(bytes, offset + 32))
            guard offset + 46 + nameLength <= bytes.count else {
                throw FormatError(description: "central directory entry \(index) at byte \(offset): name overruns the archive")
            }
            let name = String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
            entries[name] = Entry(
                name: name, method: Self.uint16(bytes, offset + 10),
                compressedSize: Int(Self.uint32(bytes, offset + 20)), uncompressedSize: Int(Self.uint32(bytes, offset + 24)),
                localHeaderOffset: Int(Self.uint32(bytes, offset + 42))
            )
            offset += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// A member's bytes, inflated. Throws when the member is absent, its local header is
    /// damaged or overruns, its method is not stored/deflate, or its data is corrupt.
    func contents(of name: String) throws(FormatError) -> [UInt8] {
        guard let entry = entries[name] else { throw FormatError(description: "no member \"\(name)\" in the archive") }
        let header = entry.localHeaderOffset
        guard header + 30 <= bytes.count, Self.uint32(bytes, header) == 0x0403_4B50 else {
            throw FormatError(description: "member \"\(name)\": no local header at byte \(header)")
        }
        let start = header + 30 + Int(Self.uint16(bytes, header + 26)) + Int(Self.uint16(bytes, header + 28))
        guard start + entry.compressedSize <= bytes.count else {
            throw FormatError(description: "member \"\(name)\": its data overruns the archive (truncated file?)")
        }
        let data = Array(bytes[start..<(start + entry.compressedSize)])
        switch entry.method {
        case 0:
            return data
        case 8:
            do {
                return try DatasetFile.inflate(data, windowBits: -15, expectedSize: entry.uncompressedSize)
            } catch {
                throw FormatError(description: "member \"\(name)\": \(error.description)")
            }
        default:
            throw FormatError(description: "member \"\(name)\": compression method \(entry.method) is not supported (only stored and deflate)")
        }
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        guard at >= 0, at + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at >= 0, at + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
