import Foundation
import Harness
import Testing

/// Children started and ended many at a time, as suites running in parallel start their
/// servers: each one's output is read to its end, no descriptor is left open, and the test
/// process survives. Two faults met here: reading output through libdispatch read sources
/// (`FileHandle.readabilityHandler`) crashed the whole test process in libdispatch's event loop
/// now and then when several were set up and torn down at once (swift-corelibs-libdispatch#949);
/// and every child left its output pipe and log file open (Foundation keeps each `Process`
/// alive), so past about a thousand descriptors `Process.run()` itself crashed listing them.
@Suite("Harness: children's output")
struct ManagedProcessOutputTests {
    @Test func manyChildrenStartedAndEndedAtOnceAreEachReadToTheirEndAndLeaveNothingOpen() async throws {
        let folder = try TemporaryFolder("managed-process")
        defer { folder.remove() }
        let openBefore = try Self.openDescriptors()
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
        // 1,200 children: two descriptors each left open would be 2,400 more. The margin is for
        // suites running beside this one in the same process.
        #expect(try Self.openDescriptors() < openBefore + 200)
    }

    static func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }
}
