#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// The process's open-file limit (`RLIMIT_NOFILE`, the unit's `LimitNOFILE=`), which bounds how
/// many connections switchd can hold: at the limit `accept` fails with EMFILE.
struct DescriptorLimit: Sendable {
    /// The soft limit; nil when it cannot be read or is unlimited.
    var soft: Int?

    /// Descriptors kept for everything but connections: the database and its WAL (one per
    /// pooled connection), the event loops' epoll and event descriptors, standard streams, logs.
    static let reserved = 64
    /// Connections accepted past the limit, when every connection is busy, only to be answered
    /// once (503, or `/healthz`) and closed (``ConnectionTable``); kept out of the limit too.
    static let overflow = 16

    static func current() -> DescriptorLimit {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max else { // rlim_t.max is RLIM_INFINITY
            return DescriptorLimit(soft: nil)
        }
        return DescriptorLimit(soft: Int(clamping: limit.rlim_cur))
    }

    /// `requested`, lowered (with a notice) so that that many connections and ``overflow`` more
    /// leave ``reserved`` descriptors free; never below 1.
    func connectionLimit(requested: Int, logger: Logger) -> Int {
        guard let soft, requested > soft - Self.reserved - Self.overflow else { return requested }
        let lowered = max(1, soft - Self.reserved - Self.overflow)
        logger.notice("--max-connections lowered to fit the open-file limit (raise LimitNOFILE= or ulimit -n to allow more)", metadata: [
            "requested": "\(requested)", "maxConnections": "\(lowered)", "openFileLimit": "\(soft)",
        ])
        return lowered
    }
}
