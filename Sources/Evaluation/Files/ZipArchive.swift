import Foundation
import ZIPFoundation

/// A zip archive read from memory (an .xlsx workbook), through ZIPFoundation: members stored or
/// deflated, each checked against its CRC-32. Errors name the archive's problem or the member.
public struct ZipArchive {
    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    private let archive: Archive

    /// Reads the archive's directory. Throws when the bytes are not a zip archive.
    init(_ bytes: [UInt8]) throws(FormatError) {
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            throw FormatError(description: "not a zip archive, or a damaged one (\(error))")
        }
    }

    /// Whether the archive has a member of that name.
    func contains(_ name: String) -> Bool {
        archive[name] != nil
    }

    /// A member's bytes, inflated. Throws when the member is absent or its data is damaged
    /// (cut short, a wrong checksum, an unknown compression method).
    func contents(of name: String) throws(FormatError) -> [UInt8] {
        guard let entry = archive[name] else { throw FormatError(description: "no member \"\(name)\" in the archive") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(clamping: entry.uncompressedSize))
        do {
            _ = try archive.extract(entry) { chunk in bytes.append(contentsOf: chunk) }
        } catch {
            throw FormatError(description: "member \"\(name)\": \(error) (truncated or damaged file?)")
        }
        return bytes
    }
}
