import Foundation
import Testing
@testable import scannerd

@Suite struct SystemdStatusTests {
    @Test func theStatusLineNeverShowsCredentials() throws {
        let url = try #require(URL(string: "http://pi:secret@switchd.local:8080/base"))
        #expect(Scannerd.withoutCredentials(url) == "http://switchd.local:8080/base")
    }
}
