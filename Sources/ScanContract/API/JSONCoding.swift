#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The v1 API's JSON conventions, shared by switchd, scannerd and tests: dates are RFC 3339 in UTC
/// with milliseconds (`2026-11-22T06:50:00.123Z`); a date without fractional seconds is accepted.
public enum JSONCoding {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be an RFC 3339 date like 2026-11-22T06:50:00.123Z, got \"\(text.prefix(40))\"")
            }
            return date
        }
        return decoder
    }

    /// `2026-11-22T06:50:00.123Z` (see ``RFC3339/format(_:)``).
    public static func formatDate(_ date: Date) -> String {
        RFC3339.format(date)
    }

    /// ``formatDate(_:)``'s text appended to `bytes` as UTF-8, for JSON written by hand (scannerd's
    /// spool lines).
    public static func appendFormattedDate(_ date: Date, to bytes: inout [UInt8]) {
        RFC3339.append(date, to: &bytes)
    }

    /// Reads an RFC 3339 timestamp (any offset, any number of fractional digits); nil otherwise.
    public static func parseDate(_ text: String) -> Date? {
        RFC3339.parse(text)
    }
}
