#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one scannerd run has counted since it started, as it reports it to switchd
/// (`PUT /v1/scanners/{id}/counters`). Counts only grow within a run; a new `run` starts them
/// again from zero, which is how switchd tells a restart from a report it has already seen.
public struct ScannerCounters: Codable, Sendable, Equatable {
    /// Chosen at random when scannerd starts.
    public var run: UUID
    /// BLE advertisements heard.
    public var advertisements: Int
    /// Wi-Fi scans completed.
    public var wifiScans: Int
    /// Radio frames or reports that could not be decoded and were skipped.
    public var parseErrors: Int
    /// Times a radio failed and was brought back.
    public var radioRecoveries: Int
    /// Uploads that failed and were tried again.
    public var uploadRetries: Int
    /// Readings dropped because the spool was full (`--spool-max-bytes`) or the disk failed.
    /// Missing in reports of older scannerd versions: read as 0.
    public var droppedReadings: Int
    /// Sealed batches waiting in the spool for switchd's receipt, at the time of the report.
    public var spoolDepth: Int
    /// The scannerd version (`scannerd --version`). Absent in reports of older scannerd versions.
    public var version: String?
    /// Each radio adapter in use, its state and counts. Absent in reports of older scannerd
    /// versions, and empty with the simulated radio.
    public var radios: [RadioHealth]?
    /// scannerd's clock when it made the report; switchd compares it with its own (the clock
    /// skew). Absent in reports of older scannerd versions.
    public var sentAt: Date?
    /// The settings revision from switchd it runs with (``ScanSwitch/settingsRevision``); absent
    /// before it had any, and from older scannerd versions.
    public var settingsRevision: Int?
    /// Each setting of that revision it does not know or could not apply, with why.
    public var unappliedSettings: [String: String]?
    /// Every setting as it is in effect: switchd's where applied, its local ones elsewhere.
    public var appliedSettings: ScannerSettings?

    /// The longest version text, in bytes.
    public static let maxVersionBytes = 64
    /// The most unapplied settings a report names.
    public static let maxUnappliedSettings = 32

    public init(
        run: UUID, advertisements: Int = 0, wifiScans: Int = 0, parseErrors: Int = 0,
        radioRecoveries: Int = 0, uploadRetries: Int = 0, droppedReadings: Int = 0, spoolDepth: Int = 0,
        version: String? = nil, radios: [RadioHealth]? = nil, sentAt: Date? = nil
    ) {
        self.version = version
        self.radios = radios
        self.sentAt = sentAt
        self.run = run
        self.advertisements = advertisements
        self.wifiScans = wifiScans
        self.parseErrors = parseErrors
        self.radioRecoveries = radioRecoveries
        self.uploadRetries = uploadRetries
        self.droppedReadings = droppedReadings
        self.spoolDepth = spoolDepth
    }

    private enum CodingKeys: String, CodingKey {
        case run, advertisements, wifiScans, parseErrors, radioRecoveries, uploadRetries, droppedReadings, spoolDepth
        case version, radios, sentAt
        case settingsRevision, unappliedSettings, appliedSettings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            run: try container.decode(UUID.self, forKey: .run),
            advertisements: try container.decode(Int.self, forKey: .advertisements),
            wifiScans: try container.decode(Int.self, forKey: .wifiScans),
            parseErrors: try container.decode(Int.self, forKey: .parseErrors),
            radioRecoveries: try container.decode(Int.self, forKey: .radioRecoveries),
            uploadRetries: try container.decode(Int.self, forKey: .uploadRetries),
            droppedReadings: try container.decodeUnlessAbsent(Int.self, forKey: .droppedReadings) ?? 0,
            spoolDepth: try container.decode(Int.self, forKey: .spoolDepth),
            version: try container.decodeUnlessAbsent(String.self, forKey: .version),
            radios: try container.decodeUnlessAbsent([RadioHealth].self, forKey: .radios),
            sentAt: try container.decodeUnlessAbsent(Date.self, forKey: .sentAt)
        )
        settingsRevision = try container.decodeUnlessAbsent(Int.self, forKey: .settingsRevision)
        unappliedSettings = try container.decodeUnlessAbsent([String: String].self, forKey: .unappliedSettings)
        appliedSettings = try container.decodeUnlessAbsent(ScannerSettings.self, forKey: .appliedSettings)
    }

    /// Every count with its JSON name, in a fixed order.
    public var counts: KeyValuePairs<String, Int> {
        [
            "advertisements": advertisements, "wifiScans": wifiScans, "parseErrors": parseErrors,
            "radioRecoveries": radioRecoveries, "uploadRetries": uploadRetries, "droppedReadings": droppedReadings,
            "spoolDepth": spoolDepth,
        ]
    }

    /// Throws ``ValidationError`` naming the first negative count, a version that is empty,
    /// overlong or not printable ASCII, or a radio that does not validate.
    public func validate() throws {
        for (field, count) in counts where count < 0 {
            throw ValidationError(field: field, reason: "must be 0 or more, got \(count)")
        }
        if let version, version.isEmpty || version.utf8.count > Self.maxVersionBytes || !version.isPrintableASCIIWord {
            throw ValidationError(field: "version", reason: "must be 1 to \(Self.maxVersionBytes) printable ASCII characters without spaces")
        }
        if let radios {
            guard radios.count <= RadioHealth.maxPerReport else {
                throw ValidationError(field: "radios", reason: "at most \(RadioHealth.maxPerReport) adapters, got \(radios.count)")
            }
            for (index, radio) in radios.enumerated() { try radio.validate(at: index) }
        }
        if let settingsRevision, settingsRevision < 0 {
            throw ValidationError(field: "settingsRevision", reason: "must be 0 or more, got \(settingsRevision)")
        }
        if let unappliedSettings {
            guard unappliedSettings.count <= Self.maxUnappliedSettings else {
                throw ValidationError(field: "unappliedSettings", reason: "at most \(Self.maxUnappliedSettings) settings, got \(unappliedSettings.count)")
            }
            for (key, why) in unappliedSettings where key.utf8.count > 64 || why.utf8.count > 200 {
                throw ValidationError(field: "unappliedSettings", reason: "keys are at most 64 bytes and reasons 200")
            }
        }
    }
}
