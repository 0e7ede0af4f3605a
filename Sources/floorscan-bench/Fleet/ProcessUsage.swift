#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Harness

/// A process's CPU time and memory, read from `/proc/<pid>/`.
struct ProcessUsage {
    /// User plus system CPU time, in seconds.
    var cpuSeconds: Double
    /// Resident set size now, in bytes.
    var residentBytes: Int
    /// The largest resident set size so far (`VmHWM`), in bytes.
    var peakResidentBytes: Int
    /// Descriptors open now.
    var openDescriptors: Int

    static func read(pid: Int32) throws -> ProcessUsage {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { throw HarnessError("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the whole line; here the state (field 3) is first.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw HarnessError("unreadable /proc/\(pid)/stat")
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func kilobytes(_ key: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
        return ProcessUsage(
            cpuSeconds: (user + system) / ticks, residentBytes: kilobytes("VmRSS") * 1024, peakResidentBytes: kilobytes("VmHWM") * 1024,
            openDescriptors: descriptors
        )
    }
}

/// CPU used by a process between two readings, as a percentage of one core.
func corePercent(from start: ProcessUsage, to end: ProcessUsage, over seconds: Double) -> Double {
    (end.cpuSeconds - start.cpuSeconds) / seconds * 100
}
