/// One radio adapter of a scanner as scannerd reports it (``ScannerCounters/radios``) and
/// `GET /v1/scanners` shows it: which adapter, whether it is working now, and how often it was
/// lost and brought back since scannerd started.
public struct RadioHealth: Codable, Hashable, Sendable {
    /// The adapter's name on the Pi: `hci0`, `wlan0`.
    public var adapter: String
    /// `ble` for a Bluetooth adapter, `wifi`.
    public var kind: RadioKind
    /// `down` while a failure has not been recovered from.
    public var state: RadioState
    /// Times the adapter was lost (down or gone, read errors) since scannerd started.
    public var failures: Int
    /// Times it was reopened and re-armed by itself since scannerd started.
    public var recoveries: Int

    public init(adapter: String, kind: RadioKind, state: RadioState, failures: Int, recoveries: Int) {
        self.adapter = adapter
        self.kind = kind
        self.state = state
        self.failures = failures
        self.recoveries = recoveries
    }

    /// The most adapters one report may name.
    public static let maxPerReport = 8
    /// The longest adapter name, in bytes (Linux interface names are shorter).
    public static let maxAdapterBytes = 32

    /// Throws ``ValidationError`` naming the field: an empty or overlong adapter name, a negative count.
    public func validate(at index: Int) throws(ValidationError) {
        guard !adapter.isEmpty, adapter.utf8.count <= Self.maxAdapterBytes, adapter.isPrintableASCIIWord else {
            throw ValidationError(field: "radios[\(index)].adapter", reason: "must be 1 to \(Self.maxAdapterBytes) printable ASCII characters")
        }
        for (field, count) in [("failures", failures), ("recoveries", recoveries)] where count < 0 {
            throw ValidationError(field: "radios[\(index)].\(field)", reason: "must be 0 or more, got \(count)")
        }
    }
}

/// Whether a radio adapter works now.
public enum RadioState: String, Codable, Hashable, Sendable, CaseIterable {
    case up
    case down
}

extension String {
    /// Only printable ASCII, no spaces or control characters: what a version or an adapter name is.
    var isPrintableASCIIWord: Bool {
        utf8.allSatisfy { (0x21...0x7e).contains($0) }
    }
}
