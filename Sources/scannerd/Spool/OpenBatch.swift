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
    /// The journal's bytes: one ``MeasurementLine`` per measurement, each ending in a newline
    /// (a line never holds one: JSON escapes it).
    private(set) var journal: [UInt8] = []
    private(set) var ids: [UUID] = []
    /// The telemetry reports' JSON, joined by commas: the batch's `telemetry` entries.
    private(set) var telemetry: [UInt8] = []
    /// How many reports ``telemetry`` holds.
    private(set) var telemetryCount = 0
    /// The journal's telemetry lines' length, newlines included.
    private(set) var telemetryLineBytes = 0
    /// Scan cycles of the revision complete when the batch was sealed; nil when unknown (a
    /// journal sealed after a crash).
    var scansCompleted: Int?

    init(batchID: UUID, scannerID: ScannerID, revision: Int) {
        self.batchID = batchID
        self.scannerID = scannerID
        self.revision = revision
    }

    var count: Int { ids.count }

    /// The journal's length: every line and its newline.
    var journalBytes: Int { journal.count + telemetryLineBytes }

    /// Appends one line, given without its newline.
    mutating func append(_ line: Data, id: UUID) {
        journal.append(contentsOf: line)
        journal.append(JournalLines.newline)
        ids.append(id)
    }

    /// Appends telemetry reports (each its JSON), read from journal lines of `lineBytes` in all.
    mutating func appendTelemetry(_ reports: [Data], lineBytes: Int) {
        for report in reports {
            if telemetryCount > 0 { telemetry.append(UInt8(ascii: ",")) }
            telemetry.append(contentsOf: report)
            telemetryCount += 1
        }
        telemetryLineBytes += lineBytes
    }

    /// Appends lines written to the journal together: the measurement lines as they are, the
    /// telemetry lines' reports apart.
    mutating func append(_ lines: JournalLines) {
        if lines.telemetry.isEmpty {
            journal.append(contentsOf: lines.bytes)
        } else {
            var rest = lines.bytes[...]
            while let end = rest.firstIndex(of: JournalLines.newline) {
                let line = rest[...end]
                if !line.starts(with: TelemetryLine.prefix) { journal.append(contentsOf: line) }
                rest = rest[(end + 1)...]
            }
            appendTelemetry(lines.telemetry, lineBytes: lines.telemetryBytes)
        }
        ids.append(contentsOf: lines.ids)
    }

    /// The ``MeasurementBatch`` JSON, keys sorted as `JSONCoding` sorts them, put together from
    /// the lines without decoding them again: the journal with its newlines turned into commas.
    /// Telemetry reports follow as a last key, `telemetry`, which switchd's measurement upload
    /// does not read: the uploader posts them apart (``ReadyBody``).
    var json: Data {
        let head = "{\"batchID\":\"\(batchID.uuidString)\",\"measurements\":["
        var tail = "],\"scannerID\":"
        MeasurementLine.appendJSONString(scannerID.rawValue, to: &tail)
        if let scansCompleted { tail += ",\"scansCompleted\":\(scansCompleted)" }
        tail += ",\"switchRevision\":\(revision)"
        if telemetryCount > 0 {
            tail += ",\"telemetry\":[" + String(decoding: telemetry, as: UTF8.self) + "]"
        }
        tail += "}"
        var json = [UInt8]()
        json.reserveCapacity(head.utf8.count + journal.count + tail.utf8.count)
        json.append(contentsOf: head.utf8)
        json.append(contentsOf: journal.dropLast())
        for index in json.indices.dropFirst(head.utf8.count) where json[index] == JournalLines.newline {
            json[index] = UInt8(ascii: ",")
        }
        json.append(contentsOf: tail.utf8)
        return Data(json)
    }
}

/// The batch measurements are being appended to: its journal, open for appending, and the
/// lines already in it.
struct OpenBatch {
    let name: JournalFileName
    let path: String
    let descriptor: FileDescriptor
    var batch: SpooledBatch
    /// Set when sealing it failed: its ready file may then exist already (see ``BatchSealer/Attempt``).
    var sealingFailed = false

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
    /// On the spool's clock (its ``ElapsedTime``): time since the spool opened.
    let deadline: Duration
}
