#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A webhook's destination, checked: an absolute `http` or `https` URL of at most
/// ``maxLength`` bytes with a host, a port from 1 to 65535 (the scheme's when left out), no user
/// name, password or fragment, and no space, control or invisible formatting character anywhere.
///
/// switchd checks a URL with this when an admin gives it (a 422 naming the problem) and again
/// before each delivery, so a URL stored by an older version, or written into the database by
/// hand, is refused with its reason instead of reaching the HTTP client, whose socket address
/// traps on a port above 65535.
public struct WebhookURL: Sendable, Hashable {
    public static let maxLength = 2048

    /// The URL as given.
    public let text: String
    /// `http` or `https`, in lower case.
    public let scheme: String
    /// The host name or address, without the brackets of an IPv6 literal.
    public let host: String
    /// The port given, or 80 / 443 by the scheme.
    public let port: Int

    /// - Throws: a ``FieldError`` whose reason follows "url: ".
    public init(_ text: String) throws(FieldError) {
        guard text.utf8.count <= Self.maxLength else {
            throw FieldError("must be at most \(Self.maxLength) bytes")
        }
        for (offset, scalar) in text.unicodeScalars.enumerated() where Self.isForbidden(scalar) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            throw FieldError("must not contain spaces or control characters (\(code) at character \(offset)); percent-encode it")
        }
        guard let parsed = URLComponents(string: text), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let rawHost = parsed.host, !rawHost.isEmpty else {
            throw FieldError("must be an absolute http or https URL, like https://example.org/hooks/floorscan")
        }
        guard parsed.user == nil, parsed.password == nil else {
            throw FieldError("must not carry a user name or password; deliveries are signed instead")
        }
        guard parsed.fragment == nil else {
            throw FieldError("must not have a #fragment")
        }
        let port = parsed.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else {
            throw FieldError("port must be from 1 to 65535, got \(port)")
        }
        self.text = text
        self.scheme = scheme
        host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        self.port = port
    }

    /// Space, the C0 and C1 controls, DEL, and the invisible characters that can disguise a URL
    /// or split a log line (line and paragraph separators, bidirectional and zero-width marks).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value <= 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return true
        default:
            return scalar.properties.isWhitespace
        }
    }
}
