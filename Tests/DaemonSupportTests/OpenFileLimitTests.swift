import DaemonSupport
import Glibc
import Testing

@Suite("Open-file limit")
struct OpenFileLimitTests {
    /// Setting the limits in force changes nothing and succeeds; a soft limit above the hard one
    /// is refused with EINVAL and leaves them as they were.
    @Test func appliesWhatTheKernelAllowsAndReportsItsRefusal() throws {
        let now = try #require(OpenFileLimit.current())
        #expect(now.apply() == nil)
        #expect(OpenFileLimit.current() == now)
        if let hard = now.hard {
            #expect(OpenFileLimit(soft: hard + 1, hard: hard).apply() == EINVAL)
            #expect(OpenFileLimit.current() == now)
        }
    }
}
