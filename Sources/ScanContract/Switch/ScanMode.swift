/// What a scanning scanner is for.
public enum ScanMode: String, Codable, Sendable, CaseIterable {
    /// Readings become the fingerprint of the location being surveyed; always stored.
    case survey
    /// Readings are used to position the scanner; stored only when `storeData` says so.
    case locate
}

/// When a switch turns itself off: after a number of scan cycles, or after a time.
///
/// JSON: `{"scans": 20}` or `{"seconds": 30}`.
public enum StopCondition: Hashable, Sendable {
    case scans(Int)
    case seconds(Double)

    public static let maxScans = 100_000
    public static let maxSeconds = 86_400.0

    public func validate() throws(ValidationError) {
        switch self {
        case .scans(let count):
            guard (1...Self.maxScans).contains(count) else {
                throw ValidationError(field: "stopAfter.scans", reason: "must be between 1 and \(Self.maxScans), got \(count)")
            }
        case .seconds(let seconds):
            guard seconds > 0, seconds <= Self.maxSeconds else {
                throw ValidationError(field: "stopAfter.seconds", reason: "must be more than 0 and at most \(Int(Self.maxSeconds)), got \(seconds)")
            }
        }
    }
}

extension StopCondition: Codable {
    enum CodingKeys: String, CodingKey { case scans, seconds }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch (try c.decodeIfPresent(Int.self, forKey: .scans), try c.decodeIfPresent(Double.self, forKey: .seconds)) {
        case (let scans?, nil): self = .scans(scans)
        case (nil, let seconds?): self = .seconds(seconds)
        default:
            throw DecodingError.dataCorrupted(.init(
                codingPath: c.codingPath,
                debugDescription: "give exactly one of {\"scans\": N} or {\"seconds\": T}"
            ))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .scans(let scans): try c.encode(scans, forKey: .scans)
        case .seconds(let seconds): try c.encode(seconds, forKey: .seconds)
        }
    }
}

/// Why a switch is off.
public enum StopReason: String, Codable, Sendable {
    /// Someone turned it off.
    case turnedOff
    /// Its `stopAfter` condition was met.
    case stopCondition
}
