#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes the spool holds against its bound (`--spool-max-bytes`): the open journal and the
/// sealed batches in `ready/`. `rejected/` is not counted: only switchd's own refusal of a batch
/// puts one there, and nothing there is ever deleted by scannerd.
///
/// The drop policy, when a reading would not fit: first the oldest sealed batches of locate
/// mode go (positions were made from them already; switchd keeps their readings only when the
/// switch says `storeData`), oldest first; then, if it still does not fit, the new reading is
/// dropped. Sealed survey batches are never dropped: survey readings are the last to go, and
/// only as new readings refused at a spool full of survey readings. Batches whose mode is not
/// known (sealed by an earlier run) count as survey.
struct SpoolBudget {
    struct Sealed {
        var bytes: Int
        var readings: Int
        /// Of a locate-mode revision: dropped first when room is needed.
        var expendable: Bool
    }

    let maxBytes: Int
    private(set) var journalBytes = 0
    private(set) var readyBytes = 0
    private var ready: [BatchFileName: Sealed] = [:]

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    var usedBytes: Int { journalBytes + readyBytes }

    func fits(_ bytes: Int) -> Bool {
        usedBytes + bytes <= maxBytes
    }

    mutating func appended(_ bytes: Int) {
        journalBytes += bytes
    }

    /// A journal of `journalBytes` was sealed into a ready file of `sealed.bytes`.
    mutating func sealed(_ name: BatchFileName, _ sealed: Sealed, journalBytes: Int) {
        self.journalBytes = max(0, self.journalBytes - journalBytes)
        add(name, sealed)
    }

    /// A ready batch found on disk, or sealed from a journal an earlier run left.
    mutating func add(_ name: BatchFileName, _ sealed: Sealed) {
        if let old = ready.updateValue(sealed, forKey: name) { readyBytes -= old.bytes }
        readyBytes += sealed.bytes
    }

    /// The batch left `ready/` (acknowledged, rejected or dropped); returns what it held.
    @discardableResult
    mutating func removed(_ name: BatchFileName) -> Sealed? {
        guard let sealed = ready.removeValue(forKey: name) else { return nil }
        readyBytes -= sealed.bytes
        return sealed
    }

    /// The oldest sealed batch the drop policy lets go first, if any.
    var oldestExpendable: BatchFileName? {
        ready.filter(\.value.expendable).keys.min()
    }
}
