import DaemonSupport
import Testing

@Suite("Token files")
struct TokenFileTextTests {
    @Test func aTokenFileHoldsItsTokenOnTheFirstLine() {
        #expect(TokenFileText.token(in: "fst_abc\n") == "fst_abc")
        #expect(TokenFileText.token(in: "  fst_abc  \r\nsecond line") == "fst_abc")
        #expect(TokenFileText.token(in: "") == nil)
        #expect(TokenFileText.token(in: "\n\n") == nil)
        #expect(TokenFileText.token(in: "Bearer fst_abc") == nil, "a header line is not a token")
    }
}
