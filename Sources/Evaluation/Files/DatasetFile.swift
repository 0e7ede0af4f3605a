import CSystemZlib
import Foundation

/// Reads a dataset file whole, inflating it when it is gzip-compressed (told by its magic bytes,
/// not its name), through the system's zlib.
public enum DatasetFile {
    public struct ReadError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    public static func contents(of path: String) throws(ReadError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(description: "cannot read \(path): no such file or not readable")
        }
        let bytes = [UInt8](data)
        guard bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B else { return bytes }
        do {
            return try inflate(bytes, windowBits: 15 + 16)
        } catch {
            throw ReadError(description: "cannot inflate \(path): \(error.description)")
        }
    }

    /// The file's lines (LF or CRLF), without their terminators; a final empty line is dropped.
    public static func lines(of path: String) throws(ReadError) -> [Substring] {
        let text = String(decoding: try contents(of: path), as: UTF8.self)
        // "\r\n" is one Character in Swift, so both terminators are named.
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Inflates a zlib stream: `windowBits` 15 + 16 for gzip, −15 for raw deflate (zip members).
    /// Concatenated gzip members are read one after another, as `gzip -d` does.
    static func inflate(_ input: [UInt8], windowBits: Int32, expectedSize: Int = 0) throws(ReadError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(max(expectedSize, input.count * 4))
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ReadError(description: "zlib would not start")
        }
        defer { inflateEnd(&stream) }
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        var failure: String?
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while failure == nil {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CSystemZlib.inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                switch status {
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    // Another gzip member may follow.
                    guard windowBits > 15, stream.avail_in > 0 else { return }
                    inflateReset(&stream)
                case Z_BUF_ERROR where stream.avail_in == 0:
                    failure = "the data ends inside a compressed stream (truncated file)"
                default:
                    failure = stream.msg.map { String(cString: $0) } ?? "corrupt compressed data (zlib status \(status))"
                }
            }
        }
        if let failure { throw ReadError(description: failure) }
        return output
    }
}
