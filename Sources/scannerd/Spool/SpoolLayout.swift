#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Where the spool keeps its files, under one directory:
///
/// - `journal/` — the open batch, one JSON line per measurement, named by ``JournalFileName``;
/// - `ready/` — sealed ``MeasurementBatch`` JSON, named by ``BatchFileName``, waiting for upload;
/// - `rejected/` — batches switchd refused, each with a `.response.json` beside it.
struct SpoolLayout: Sendable {
    let root: String

    var journals: String { root + "/journal" }
    var ready: String { root + "/ready" }
    var rejected: String { root + "/rejected" }

    func journal(_ name: JournalFileName) -> String { journals + "/" + name.text }
    func ready(_ name: BatchFileName) -> String { ready + "/" + name.readyText }
    func rejected(_ name: BatchFileName) -> String { rejected + "/" + name.readyText }
    func rejectionResponse(_ name: BatchFileName) -> String { rejected + "/" + name.responseText }
}

/// A batch's place in the spool's order and its ID: `000000000042_<UUID>.json`. The sequence
/// number is given when the batch opens, so ready batches sort oldest first by name.
struct BatchFileName: Hashable, Sendable, Comparable {
    let sequence: Int
    let batchID: UUID

    static let sequenceDigits = 12
    static let readySuffix = ".json"
    static let responseSuffix = ".response.json"

    var prefix: String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, Self.sequenceDigits - digits.count)) + digits + "_" + batchID.uuidString
    }

    var readyText: String { prefix + Self.readySuffix }
    var responseText: String { prefix + Self.responseSuffix }

    init(sequence: Int, batchID: UUID) {
        self.sequence = sequence
        self.batchID = batchID
    }

    /// Reads `<sequence>_<UUID>`; nil for anything else.
    init?(prefix: Substring) {
        let parts = prefix.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == Self.sequenceDigits, let sequence = Int(parts[0]),
              let batchID = UUID(uuidString: String(parts[1])) else { return nil }
        self.init(sequence: sequence, batchID: batchID)
    }

    /// Reads a ready file's name; nil for anything else (temporary files, responses).
    init?(readyText text: String) {
        guard text.hasSuffix(Self.readySuffix), !text.hasSuffix(Self.responseSuffix) else { return nil }
        self.init(prefix: text.dropLast(Self.readySuffix.count))
    }

    static func < (lhs: BatchFileName, rhs: BatchFileName) -> Bool {
        (lhs.sequence, lhs.batchID.uuidString) < (rhs.sequence, rhs.batchID.uuidString)
    }
}

/// An open batch's journal: `<sequence>_<UUID>_r<revision>_<scannerID>.journal`, so a journal
/// left by a crash says everything needed to seal it.
struct JournalFileName: Hashable, Sendable {
    let batch: BatchFileName
    let revision: Int
    let scannerID: ScannerID

    static let suffix = ".journal"

    var text: String { "\(batch.prefix)_r\(revision)_\(scannerID.rawValue)\(Self.suffix)" }

    init(batch: BatchFileName, revision: Int, scannerID: ScannerID) {
        self.batch = batch
        self.revision = revision
        self.scannerID = scannerID
    }

    /// Reads a journal's name; nil for anything else. The scanner ID comes last because it may
    /// itself contain `_`.
    init?(text: String) {
        guard text.hasSuffix(Self.suffix) else { return nil }
        let parts = text.dropLast(Self.suffix.count).split(separator: "_", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[2].hasPrefix("r"), let revision = Int(parts[2].dropFirst()), revision >= 1,
              let batch = BatchFileName(prefix: parts[0] + "_" + parts[1]) else { return nil }
        do {
            self.init(batch: batch, revision: revision, scannerID: try ScannerID(String(parts[3])))
        } catch {
            return nil
        }
    }
}
