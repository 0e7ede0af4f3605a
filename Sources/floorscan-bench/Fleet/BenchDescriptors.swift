import DaemonSupport
import Harness

/// The benchmark's own open-file limit. The fleet's client holds two connections per simulated
/// scanner, so under a shell's `ulimit -n 1024` it cannot simulate 1,000 scanners; it raises its
/// own limit for itself, and starts switchd under the limits it inherited, so that switchd is
/// measured under the limit the shell gave (its unit's `LimitNOFILE=`), not the raised one.
struct BenchDescriptors {
    /// The limits the benchmark was started with.
    var inherited: OpenFileLimit
    /// Whether the benchmark raised its own limit above the inherited one.
    var raised = false

    /// The soft limit to start switchd under: the inherited one when the benchmark raised its
    /// own (a child would inherit the raised one); nil to let switchd inherit.
    var switchdLimit: Int? { raised ? inherited.soft : nil }

    /// Reads the inherited limits and raises the process's own (soft, and hard when it is
    /// privileged to) so that `descriptors` fit.
    ///
    /// - Throws: when the limits cannot be read, or the kernel refuses a limit that fits
    ///   `descriptors` (an unprivileged run under a hard limit too low): the error says how many
    ///   are needed.
    static func raising(toFit descriptors: Int) throws -> BenchDescriptors {
        guard let inherited = OpenFileLimit.current() else { throw HarnessError("the open-file limit (RLIMIT_NOFILE) cannot be read") }
        guard let soft = inherited.soft, soft < descriptors else { return BenchDescriptors(inherited: inherited) }
        let hard = inherited.hard.map { max($0, descriptors) }
        if let refused = OpenFileLimit(soft: descriptors, hard: hard).apply() {
            throw HarnessError(
                "the fleet client needs \(descriptors) open files and the limit is \(soft) (hard \(inherited.hard.map(String.init) ?? "unlimited")); "
                    + "raising it failed with errno \(refused): run it as root or with a higher `ulimit -Hn`"
            )
        }
        print("fleet client: open-file limit raised from \(soft) to \(descriptors) for the client; switchd keeps \(soft)")
        return BenchDescriptors(inherited: inherited, raised: true)
    }
}
