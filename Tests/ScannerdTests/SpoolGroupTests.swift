import Foundation
import ScanContract
import Testing
@testable import scannerd

/// Readings heard together reach the spool as a group: one `write()` per batch they go into,
/// and what was appended survives a killed process whole.
@Suite("Spool: groups of readings", .timeLimit(.minutes(1)))
struct SpoolGroupTests {
    @Test func aGroupIsInTheJournalAfterOneWrite() async throws {
        let directory = try TemporaryDirectory()
        let counters = ScannerdCounters()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger), counters: counters)
        let group = (0..<12).map { wifiMeasurement(scan: $0) }
        await spool.append(group, revision: 3)
        #expect(counters.journalWrites.load(ordering: .relaxed) == 1)
        let journals = try journalFiles(spool)
        #expect(journals.count == 1)
        let contents = JournalReader.read(try FileSystem.readFile(spool.layout.journals + "/" + journals[0]))
        #expect(contents.measurements == group)
        #expect(contents.tornTail == 0)
    }

    @Test func aGroupCrossingTheBatchSizeIsSplitAtItWithOneWritePerBatch() async throws {
        let directory = try TemporaryDirectory()
        let counters = ScannerdCounters()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger), batchSize: 4, counters: counters)
        let first = (0..<3).map { wifiMeasurement(scan: $0) }
        let second = (3..<12).map { wifiMeasurement(scan: $0) }
        await spool.append(first, revision: 1)
        await spool.append(second, revision: 1)
        let all = first + second
        #expect(try spool.decodedReadyBatches().map(\.measurements) == [Array(all[0..<4]), Array(all[4..<8]), Array(all[8..<12])])
        #expect(try journalFiles(spool).isEmpty, "the last batch was full too")
        #expect(counters.journalWrites.load(ordering: .relaxed) == 4, "1 for the first group; 1 + 4 + 4 for the second")
    }

    @Test func anEmptyGroupWritesNothingAndSealsNothing() async throws {
        let directory = try TemporaryDirectory()
        let counters = ScannerdCounters()
        let spool = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger), counters: counters)
        await spool.append([wifiMeasurement()], revision: 1)
        await spool.append([], revision: 2)
        #expect(try spool.readyBatches().isEmpty, "no reading of revision 2 came, so revision 1's batch stays open")
        #expect(counters.journalWrites.load(ordering: .relaxed) == 1)
    }

    /// The first spool is left as a SIGKILL leaves it: never sealed, its journal open. What a
    /// killed process wrote stays in the file, so the next spool to open the folder finds it.
    @Test func anAppendedGroupSurvivesAKillWhole() async throws {
        let directory = try TemporaryDirectory()
        let group = (0..<20).map { wifiMeasurement(scan: $0, rssi: -40 - $0) }
        let killed = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        await killed.append(group, revision: 7)
        let batchID = try #require(try journalFiles(killed).first.flatMap { JournalFileName(text: $0) }?.batch.batchID)

        let reopened = try makeSpool(in: directory.path, events: .disabled(logger: quietLogger))
        let ready = try reopened.decodedReadyBatches()
        #expect(ready.map(\.batchID) == [batchID])
        #expect(ready.first?.measurements == group)
        #expect(ready.first?.switchRevision == 7)
    }

    /// A kill during the group's `write()` (before `append` returned) may leave any prefix of it:
    /// recovery keeps exactly the lines whose newline made it, and drops the torn one.
    @Test func aGroupsWriteCutShortAtAnyByteKeepsItsCompleteLines() throws {
        let group = (0..<4).map { wifiMeasurement(scan: $0) }
        var lines = JournalLines()
        var ends: [Int] = []
        for measurement in group {
            ends.append(lines.bytes.count + lines.append(measurement))
        }
        for cut in 0...lines.bytes.count {
            let contents = JournalReader.read(Data(lines.bytes.prefix(cut)))
            let complete = ends.filter { $0 <= cut }.count
            #expect(contents.measurements == Array(group.prefix(complete)), "cut at \(cut)")
            #expect(contents.tornTail == cut - (ends.last { $0 <= cut } ?? 0))
            #expect(contents.unreadableLines.isEmpty)
        }
    }

    @Test func aFullSpoolKeepsWhatFitsOfAGroupAndCountsTheRest() async throws {
        let directory = try TemporaryDirectory()
        let counters = ScannerdCounters()
        let lineBytes = MeasurementLine.encode(wifiMeasurement()).count + 1
        let spool = try makeSpool(
            in: directory.path, events: .disabled(logger: quietLogger), maxBytes: 5 * lineBytes + lineBytes / 2, counters: counters
        )
        let group = (0..<8).map { wifiMeasurement(scan: $0) }
        await spool.append(group, revision: 1)
        let journals = try journalFiles(spool)
        let contents = JournalReader.read(try FileSystem.readFile(spool.layout.journals + "/" + journals[0]))
        #expect(contents.measurements == Array(group[0..<5]))
        #expect(counters.droppedReadings.load(ordering: .relaxed) == 3)
        #expect(counters.journalWrites.load(ordering: .relaxed) == 1)
    }
}
