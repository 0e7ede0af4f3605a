#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limits (`RLIMIT_NOFILE`): the soft one in force and the hard one it
/// may be raised to; nil stands for unlimited.
public struct OpenFileLimit: Sendable, Equatable {
    public var soft: Int?
    public var hard: Int?

    public init(soft: Int?, hard: Int?) {
        self.soft = soft
        self.hard = hard
    }

    /// The limits now; nil when the kernel does not say.
    public static func current() -> OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return OpenFileLimit(soft: finite(limit.rlim_cur), hard: finite(limit.rlim_max))
    }

    /// Puts these limits in force.
    ///
    /// - Returns: nil when done; the kernel's errno when it refused (a soft limit above the hard
    ///   one, or a hard one raised without privilege), the limits then unchanged.
    public func apply() -> Int32? {
        var limit = rlimit()
        limit.rlim_cur = soft.map { rlim_t($0) } ?? rlim_t.max
        limit.rlim_max = hard.map { rlim_t($0) } ?? rlim_t.max
        return setrlimit(Self.resource, &limit) == 0 ? nil : errno
    }

    #if os(Linux)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// nil for RLIM_INFINITY (`rlim_t.max`).
    private static func finite(_ value: rlim_t) -> Int? {
        value == rlim_t.max ? nil : Int(clamping: value)
    }
}
