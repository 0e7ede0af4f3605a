@testable import DaemonSupport
import Logging
import Testing

@Suite struct JournalLogHandlerTests {
    @Test func priorityPrefixNoTimestampSortedMetadata() {
        let line = JournalLogHandler.line(
            level: .warning, label: "switchd", message: "upload failed",
            metadata: ["reason": "HTTP 503: busy", "batchID": "42"]
        )
        #expect(line == "<4>switchd: upload failed batchID=42 reason=\"HTTP 503: busy\"\n")
    }

    @Test func oneEventStaysOneLine() {
        let line = JournalLogHandler.line(level: .error, label: "scannerd", message: "a\nb", metadata: ["error": "x\ny"])
        #expect(line == "<3>scannerd: a\\nb error=x\\ny\n")
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: [(Logger.Level.debug, 7), (.info, 6), (.notice, 5), (.error, 3), (.critical, 2)])
    func levelsMapToSyslogPriorities(level: Logger.Level, priority: Int) {
        #expect(JournalLogHandler.priority(level) == priority)
    }
}
