import Foundation
import Harness
import Testing

/// Children started and ended many at a time, as suites running in parallel start their
/// servers: each one's output is read to its end and the test process survives. Reading output
/// through libdispatch read sources (`FileHandle.readabilityHandler`) crashed the whole test
/// process in libdispatch's event loop now and then when several were set up and torn down at
/// once (swift-corelibs-libdispatch#949); this churns far more of them than any suite does.
@Suite("Harness: children's output")
struct ManagedProcessOutputTests {
    @Test func manyChildrenStartedAndEndedAtOnceAreEachReadToTheirEnd() async throws {
        let folder = try TemporaryFolder("managed-process")
        defer { folder.remove() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0 ..< 8 {
                group.addTask {
                    for round in 0 ..< 150 {
                        let child = try ManagedProcess(
                            name: "echo", executable: URL(fileURLWithPath: "/bin/sh"),
                            arguments: ["-c", "echo first; echo \(worker)-\(round)"],
                            stderrPath: folder.path("echo-\(worker)-\(round).log")
                        )
                        let line = try await child.waitForLine(timeout: .seconds(60)) { $0 == "\(worker)-\(round)" }
                        #expect(line == "\(worker)-\(round)")
                        await child.waitForExit()
                        #expect(child.outputLines == ["first", "\(worker)-\(round)"])
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
