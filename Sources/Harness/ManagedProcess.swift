import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real child process whose standard output is read line by line as it comes.
///
/// Standard error goes to a file (`stderrPath`) so a failing test can show what the daemon said.
/// The process is not killed on deinit: call ``terminate()``, ``kill()`` or ``signal(_:)``.
public final class ManagedProcess: @unchecked Sendable {
    public let name: String
    public let stderrPath: String
    private let process = Process()
    private let lines = LineBuffer()
    /// Announced when the process exits.
    private let exits = Wakeups()

    /// Starts `executable` with `arguments`. Throws when it cannot be started.
    public init(name: String, executable: URL, arguments: [String], stderrPath: String, environment: [String: String]? = nil) throws {
        self.name = name
        self.stderrPath = stderrPath
        process.executableURL = executable
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let stdout = Pipe()
        process.standardOutput = stdout
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exits] _ in exits.announce() }
        try ProcessLaunch.run(process)
        // The child has its own copy. Foundation on Linux keeps every `Process` it started alive,
        // and with it the handles it was given, so one left open here stays open for good.
        try? log.close()
        Self.readLines(of: stdout.fileHandleForReading, into: lines, name: name)
    }

    /// Reads `output` to its end on a thread of its own, with blocking reads, handing each
    /// chunk to `lines`. Not `FileHandle.readabilityHandler`: its libdispatch read sources,
    /// set up and torn down by several children at once, corrupt libdispatch's epoll
    /// bookkeeping on Linux and crash the whole test process in `_dispatch_event_loop_drain`
    /// (swift-corelibs-libdispatch#949); suites starting servers in parallel met it about one
    /// run in ten. A read error ends the output as the end of file does; the handle is closed
    /// then (see ``init(name:executable:arguments:stderrPath:environment:)`` for why).
    private static func readLines(of output: FileHandle, into lines: LineBuffer, name: String) {
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(output.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    lines.append(Data(buffer[0 ..< count]))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            try? output.close()
            lines.finish()
        }
        reader.name = "\(name) output"
        reader.start()
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Every complete line printed so far.
    public var outputLines: [String] { lines.snapshot() }

    /// Waits until a printed line satisfies `matches`, and returns it. Throws on timeout or when
    /// the process ends first.
    public func waitForLine(timeout: Duration = .seconds(60), where matches: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await lines.wait(from: 0, timeout: timeout, name: name, matches: matches).line
    }

    /// Like ``waitForLine(timeout:where:)`` but looks only at lines from index `start` on, and
    /// returns the index of the match too, so a caller following a long output reads each line once.
    public func waitForLine(from start: Int, timeout: Duration = .seconds(60), where matches: @escaping @Sendable (String) -> Bool) async throws -> (index: Int, line: String) {
        try await lines.wait(from: start, timeout: timeout, name: name, matches: matches)
    }

    public func signal(_ signal: Int32) {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, signal) }
    }

    /// SIGKILL: no chance to clean up, as in a crash or power cut of the process.
    public func kill() async {
        signal(SIGKILL)
        await waitForExit()
    }

    /// SIGTERM and wait: the graceful stop systemd does.
    @discardableResult
    public func terminate(timeout: Duration = .seconds(20)) async -> Int32 {
        signal(SIGTERM)
        await waitForExit(before: ContinuousClock.now + timeout)
        if process.isRunning { await kill() }
        await waitForExit()
        return process.terminationStatus
    }

    public func waitForExit() async {
        while process.isRunning {
            await waitForExit(before: ContinuousClock.now + .seconds(60))
        }
    }

    /// Returns when the process has exited or `deadline` has come. Woken by the exit itself;
    /// looks again every 100 ms besides, should the exit be announced before `isRunning` says so.
    private func waitForExit(before deadline: ContinuousClock.Instant) async {
        while ContinuousClock.now < deadline {
            let seen = exits.current
            guard process.isRunning else { return }
            _ = await exits.wait(after: seen, before: min(deadline, ContinuousClock.now + .milliseconds(100)))
        }
    }

    /// Waits until a line of standard error (its log) satisfies `matches`, and returns it. Reads
    /// the file every few milliseconds; throws on timeout or when the process ends first.
    public func waitForLogLine(timeout: Duration = .seconds(60), where matches: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { matches(String($0)) }) { return String(line) }
            if !process.isRunning { throw HarnessError("\(name) ended before logging the expected line") }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw HarnessError("\(name) did not log the expected line within \(timeout)")
    }

    /// The last `count` lines of standard error, for failure messages.
    public func stderrTail(_ count: Int = 30) -> String {
        let text = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(count).joined(separator: "\n")
    }
}

/// Lines of a child's output, and the waiters for one that matches.
final class LineBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = Data()
    private var lines: [String] = []
    private var finished = false
    /// Announced on every new line and at the end of the output.
    private let news = Wakeups()

    func append(_ data: Data) {
        let added = lock.withLock {
            pending.append(data)
            var added = false
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
                added = true
            }
            return added
        }
        if added { news.announce() }
    }

    func finish() {
        lock.withLock { finished = true }
        news.announce()
    }

    func snapshot() -> [String] {
        lock.withLock { lines }
    }

    /// Looks at each line as it is printed; the timeout is only a backstop.
    func wait(from start: Int, timeout: Duration, name: String, matches: @Sendable (String) -> Bool) async throws -> (index: Int, line: String) {
        let deadline = ContinuousClock.now + timeout
        var checked = start
        while true {
            let seen = news.current
            let (current, done) = lock.withLock { (lines, finished) }
            if checked < current.count, let index = current[checked...].firstIndex(where: matches) {
                return (index, current[index])
            }
            checked = max(checked, current.count)
            if done { throw HarnessError("\(name) ended before printing the expected line") }
            guard await news.wait(after: seen, before: deadline) else {
                throw HarnessError("\(name) did not print the expected line within \(timeout)")
            }
        }
    }
}

public struct HarnessError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
