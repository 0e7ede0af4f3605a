import Glibc

/// The process's use of transparent huge pages (`prctl(PR_SET_THP_DISABLE)`).
///
/// Where the kernel backs anonymous memory with huge pages whenever it can (THP `always`, as
/// Debian's arm64 kernel does), the first touch of a thread's 8 MiB stack may take a whole 2 MiB
/// page where the thread uses a few KiB: 2 MiB more idle RSS in some runs and not in others. The
/// daemon has no memory that gains from huge pages, so it turns them off for itself at start.
enum TransparentHugePages {
    /// Turns transparent huge pages off for this process, its threads and what it executes (the
    /// kernel keeps the setting across fork and exec); memory already backed by one stays so.
    ///
    /// - Returns: nil when done; the errno when the kernel refused (a kernel without THP still
    ///   accepts it), or `ENOSYS` when the C library has no `prctl`. Nothing changes then.
    static func disableForThisProcess() -> Int32? {
        guard let prctl = Self.prctl else { return ENOSYS }
        return prctl(setDisable, 1, 0, 0, 0) == 0 ? nil : errno
    }

    /// Whether they are off for this process; nil when the kernel does not say.
    static func areDisabled() -> Bool? {
        guard let prctl = Self.prctl else { return nil }
        let answer = prctl(getDisable, 0, 0, 0, 0)
        return answer < 0 ? nil : answer != 0
    }

    /// Glibc declares `prctl` variadic, which Swift does not import. Its arguments are all integers,
    /// which the Linux calling conventions scannerd runs on (x86-64 and AArch64) pass in the same
    /// registers whether the callee is variadic or not, so it is called through its symbol with
    /// the five-argument shape the kernel takes.
    /// `PR_SET_THP_DISABLE` and `PR_GET_THP_DISABLE` of linux/prctl.h (Linux 3.15), which Glibc's
    /// Swift module does not carry.
    private static let setDisable: Int32 = 41
    private static let getDisable: Int32 = 42
    private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    private static let prctl: Prctl? = dlsym(nil, "prctl").map { unsafeBitCast($0, to: Prctl.self) }
}
