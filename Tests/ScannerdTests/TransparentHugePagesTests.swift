import Testing
@testable import scannerd

@Suite("Transparent huge pages")
struct TransparentHugePagesTests {
    /// After the call the kernel reports them off for this process (PR_GET_THP_DISABLE), which is
    /// what keeps a huge page off the daemon's thread stacks.
    @Test func areOffForTheProcessAfterwards() throws {
        #expect(TransparentHugePages.disableForThisProcess() == nil)
        #expect(TransparentHugePages.areDisabled() == true)
    }
}
