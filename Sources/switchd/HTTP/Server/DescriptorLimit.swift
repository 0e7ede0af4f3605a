import DaemonSupport
import Logging

/// The process's open-file limit (`RLIMIT_NOFILE`, the unit's `LimitNOFILE=`), which bounds how
/// many connections switchd can hold: at the limit `accept` fails with EMFILE.
struct DescriptorLimit: Sendable, Equatable {
    /// The soft limit, the one in force; nil when it cannot be read or is unlimited.
    var soft: Int?
    /// The hard limit, as far as an unprivileged process may raise the soft one; nil when it
    /// cannot be read or is unlimited.
    var hard: Int?

    /// Descriptors kept for everything but connections: the database and its WAL (one per
    /// pooled connection), the event loops' epoll and event descriptors, standard streams, logs.
    static let reserved = 64
    /// Connections accepted past the limit, when every connection is busy, only to be answered
    /// once (503, or `/healthz`) and closed (``ConnectionTable``); kept out of the limit too.
    static let overflow = 16

    /// The open-file limit that `connections` connections need: them, ``overflow`` more and
    /// ``reserved``.
    static func needed(forConnections connections: Int) -> Int {
        connections + overflow + reserved
    }

    static func current() -> DescriptorLimit {
        let limit = OpenFileLimit.current()
        return DescriptorLimit(soft: limit?.soft, hard: limit?.hard)
    }

    /// The soft limit to ask for so that `connections` fit: what they need, as far as the hard
    /// limit allows; nil when the soft limit is already enough (or unlimited), or the hard limit
    /// leaves no room above it. Never lower than the soft limit now.
    func raisedSoftLimit(toFit connections: Int) -> Int? {
        guard let soft else { return nil }
        let wanted = min(Self.needed(forConnections: connections), hard ?? .max)
        return wanted > soft ? wanted : nil
    }

    /// Raises the soft limit towards the hard one so that `connections` connections fit (the
    /// hard limit is what `LimitNOFILE=` or `ulimit -Hn` allows; the soft one is often left at
    /// 1,024 below it), and returns the limit then in force. Logs a notice when it raised it;
    /// when the kernel refuses, logs a warning and returns the limit unchanged (switchd then
    /// holds fewer connections, see ``connectionLimit(requested:logger:)``).
    func raisingSoftLimit(toFit connections: Int, logger: Logger) -> DescriptorLimit {
        guard let wanted = raisedSoftLimit(toFit: connections), let soft else { return self }
        if let refused = OpenFileLimit(soft: wanted, hard: hard).apply() {
            logger.warning("Could not raise the open-file limit", metadata: [
                "from": "\(soft)", "to": "\(wanted)", "errno": "\(refused)",
            ])
            return self
        }
        logger.notice("Open-file limit raised to fit --max-connections", metadata: [
            "from": "\(soft)", "to": "\(wanted)", "hardLimit": "\(hard.map(String.init) ?? "unlimited")",
        ])
        return DescriptorLimit(soft: wanted, hard: hard)
    }

    /// `requested`, lowered (with a notice) so that that many connections and ``overflow`` more
    /// leave ``reserved`` descriptors free; never below 1.
    func connectionLimit(requested: Int, logger: Logger) -> Int {
        guard let soft, Self.needed(forConnections: requested) > soft else { return requested }
        let lowered = max(1, soft - Self.reserved - Self.overflow)
        logger.notice("--max-connections lowered to fit the open-file limit (raise LimitNOFILE= or ulimit -n to allow more)", metadata: [
            "requested": "\(requested)", "maxConnections": "\(lowered)", "openFileLimit": "\(soft)",
        ])
        return lowered
    }
}
