#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// A batch as the spool holds it: its measurements as the JSON lines of its journal.
struct SpooledBatch {
    let batchID: UUID
    let scannerID: ScannerID
    let revision: Int
    /// One ``MeasurementLine`` per measurement, without the newline.
    private(set) var lines: [Data] = []
    private(set) var ids: [UUID] = []
    /// Scan cycles of the revision complete when the batch was sealed; nil when unknown (a
    /// journal sealed after a crash).
    var scansCompleted: Int?

    init(batchID: UUID, scannerID: ScannerID, revision: Int) {
        self.batchID = batchID
        self.scannerID = scannerID
        self.revision = revision
    }

    var count: Int { lines.count }

    /// The journal's length: every line and its newline.
    var journalBytes: Int { lines.reduce(0) { $0 + $1.count + 1 } }

    mutating func append(_ line: Data, id: UUID) {
        lines.append(line)
        ids.append(id)
    }

    /// The ``MeasurementBatch`` JSON, keys sorted as `JSONCoding` sorts them, put together from
    /// the lines without decoding them again.
    var json: Data {
        let head = "{\"batchID\":\"\(batchID.uuidString)\",\"measurements\":["
        var tail = "],\"scannerID\":"
        MeasurementLine.appendJSONString(scannerID.rawValue, to: &tail)
        if let scansCompleted { tail += ",\"scansCompleted\":\(scansCompleted)" }
        tail += ",\"switchRevision\":\(revision)}"
        var json = Data(capacity: lines.reduce(head.utf8.count + tail.utf8.count) { $0 + $1.count + 1 })
        json.append(contentsOf: head.utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(line)
        }
        json.append(contentsOf: tail.utf8)
        return json
    }
}

/// The batch measurements are being appended to: its journal, open for appending, and the
/// lines already in it.
struct OpenBatch {
    let name: JournalFileName
    let path: String
    let descriptor: FileDescriptor
    var batch: SpooledBatch

    init(name: JournalFileName, path: String, descriptor: FileDescriptor) {
        self.name = name
        self.path = path
        self.descriptor = descriptor
        batch = SpooledBatch(batchID: name.batch.batchID, scannerID: name.scannerID, revision: name.revision)
    }

    var batchID: UUID { name.batch.batchID }
    var revision: Int { name.revision }
}

/// A batch that has just opened, and when it must be sealed by age.
struct OpenedBatch: Sendable {
    let batchID: UUID
    /// On the spool's clock (``SpoolClock``): time since the spool opened.
    let deadline: Duration
}
