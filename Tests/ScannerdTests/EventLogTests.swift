import Foundation
import Testing
@testable import scannerd

/// The event log other tools read: one JSON line per event, across restarts.
@Suite("Event log")
struct EventLogTests {
    @Test func aLineCutShortByAKilledPredecessorDoesNotSwallowTheNextOne() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("events.jsonl")
        // What a scannerd killed in the middle of a multi-page write() leaves behind.
        try Data((#"{"event":"acked","monotonicNs":1}"# + "\n" + #"{"batchID":"6F9619FF-8B86-D011-B42D"#).utf8).write(to: URL(fileURLWithPath: path))
        let log = try EventLog(.file(path), logger: quietLogger)
        log.record(.idle(revision: 7))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let last = try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any]
        #expect(last?["event"] as? String == "idle")
        #expect(last?["revision"] as? Int == 7)
    }

    @Test func aCleanFileIsAppendedToAsItIs() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("events.jsonl")
        try Data((#"{"event":"idle","monotonicNs":1,"revision":1}"# + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try EventLog(.file(path), logger: quietLogger).record(.idle(revision: 2))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2)
        #expect(!text.contains("\n\n"))
    }
}
