import Foundation

/// The process's peak memory, for reports.
enum ProcessMemory {
    /// Peak resident set size in bytes (getrusage's ru_maxrss, which Linux gives in KiB); nil if
    /// the call fails.
    static func maximumResidentBytes() -> Int? {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss) * 1024
    }
}
