/// The name a scanner is known by: 1–64 characters of `A–Z a–z 0–9 . _ -`, so it is safe in a URL
/// path, a file name and a log line without escaping.
public struct ScannerID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// The scanner the seed's `/scanSwitch/1` endpoint talks about.
    public static let `default` = ScannerID(unchecked: "default")

    public init(_ text: String) throws(FieldError) {
        guard (1...64).contains(text.utf8.count),
              text.utf8.allSatisfy({ Self.allowed.contains($0) }) else {
            throw FieldError("must be 1–64 characters of A–Z a–z 0–9 . _ -, got \"\(text.prefix(80))\"")
        }
        rawValue = text
    }

    private init(unchecked: String) { rawValue = unchecked }

    private static let allowed: Set<UInt8> = Set(
        Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
            + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")]
    )

    public var description: String { rawValue }
    public static func < (lhs: ScannerID, rhs: ScannerID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension ScannerID: TextCodable {}
