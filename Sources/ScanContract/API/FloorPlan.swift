#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The image formats a floor plan may be uploaded in. The format is read from the bytes, never
/// taken from what the client claims.
public enum PlanImageFormat: String, Codable, Sendable, CaseIterable {
    case png, jpeg, svg

    /// The `Content-Type` the plan is served with.
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .svg: "image/svg+xml"
        }
    }

    /// PNG's eight-byte signature (PNG specification, 5.2).
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// JPEG: SOI (FF D8) followed by the first marker's FF (ITU T.81, B.1.1.2).
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    /// How far into an SVG file its `<svg` root element may start (after an XML declaration,
    /// comments and a doctype).
    public static let svgRootSearchLimit = 4096

    /// The format of `bytes`, or nil when they are none of PNG, JPEG or SVG.
    ///
    /// An SVG is text that starts with `<` and whose root element `<svg` appears within the first
    /// ``svgRootSearchLimit`` bytes: UTF-16 with its byte-order mark (XML 1.0, 4.3.3: a UTF-16
    /// document must begin with one), else UTF-8 (a byte-order mark allowed), else bytes read as
    /// ISO-8859-1 (a plan that declares it); any NUL character there means binary, so not SVG.
    /// Whether the text is an SVG document switchd keeps is for its parser to say.
    public static func detect(_ bytes: some Collection<UInt8>) -> PlanImageFormat? {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: jpegSignature) { return .jpeg }
        let text = headText(Array(bytes.prefix(svgRootSearchLimit)))
        guard !text.unicodeScalars.contains("\0") else { return nil }
        let trimmed = text.drop { $0.isWhitespace }
        guard trimmed.first == "<" else { return nil }
        return trimmed.lowercased().contains("<svg") ? .svg : nil
    }

    /// The start of a file as text: UTF-16 after its byte-order mark (a unit cut at the end is
    /// dropped), or else UTF-8, or else ISO-8859-1 (every byte a character).
    private static func headText(_ head: [UInt8]) -> String {
        let bigEndian: Bool
        switch head.prefix(2) {
        case [0xFE, 0xFF]: bigEndian = true
        case [0xFF, 0xFE]: bigEndian = false
        default:
            var head = head
            if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
            return String(validating: head, as: UTF8.self) ?? validPrefix(head)
                ?? String(String.UnicodeScalarView(head.map { Unicode.Scalar($0) }))
        }
        let units = stride(from: 2, to: head.count - 1, by: 2).map { (index: Int) -> UInt16 in
            let first = UInt16(head[index]), second = UInt16(head[index + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The text of `head` when it is valid UTF-8 but for a character cut at its end.
    private static func validPrefix(_ head: [UInt8]) -> String? {
        for cut in 1...3 where head.count > cut {
            if let text = String(validating: head.dropLast(cut), as: UTF8.self) { return text }
        }
        return nil
    }
}

/// What a floor's uploaded plan is; the image itself is at `GET /v1/floors/{id}/plan`.
public struct FloorPlanInfo: Codable, Hashable, Sendable {
    /// `image/png`, `image/jpeg` or `image/svg+xml`.
    public var contentType: String
    public var bytes: Int

    public init(contentType: String, bytes: Int) {
        self.contentType = contentType
        self.bytes = bytes
    }
}

/// How a floor's plan image maps to the metres locations are given in:
/// `x = (pixelX - originX) × metresPerPixel`, `y = (pixelY - originY) × metresPerPixel`
/// (pixels of the image as stored, y downwards).
public struct PlanScale: Codable, Hashable, Sendable {
    public var metresPerPixel: Double
    /// The pixel of the plan image where x = 0 m, y = 0 m.
    public var originX: Double
    public var originY: Double

    public init(metresPerPixel: Double, originX: Double, originY: Double) {
        self.metresPerPixel = metresPerPixel
        self.originX = originX
        self.originY = originY
    }

    /// A scale finer than a micrometre or coarser than a kilometre per pixel is a mistake.
    public static let metresPerPixelRange = 1e-6...1_000.0
    /// Origins further than this many pixels outside the image are a mistake too.
    public static let originLimit = 1_000_000.0

    public func validate() throws(ValidationError) {
        guard metresPerPixel.isFinite, Self.metresPerPixelRange.contains(metresPerPixel) else {
            throw ValidationError(
                field: "scale.metresPerPixel",
                reason: "must be between \(Self.metresPerPixelRange.lowerBound) and \(Self.metresPerPixelRange.upperBound), got \(metresPerPixel)"
            )
        }
        for (field, value) in [("scale.originX", originX), ("scale.originY", originY)] where !(value.isFinite && abs(value) <= Self.originLimit) {
            throw ValidationError(field: field, reason: "must be a finite number of pixels within ±\(Int(Self.originLimit)), got \(value)")
        }
    }
}
