import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd

/// Every answer tells the browser not to sniff its type and not to send the page's address on:
/// JSON answers, error answers and the admin page.
@Suite("Answers: nosniff and Referrer-Policy")
struct ResponseHeaderTests {
    @Test func jsonAnswersAndErrorsCarryNosniffAndNoReferrer() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            for path in ["/v1/floors", "/v1/floors/999", "/v1/nowhere", "/healthz"] {
                let response = try await client.get(path)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(path)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                #expect(response.headers[.referrerPolicy] == "no-referrer", "\(path)")
            }
        }
    }

    @Test func theAdminPageSendsNoReferrer() async throws {
        let site = try AdminPageTests.Site()
        defer { site.remove() }
        try await makeApp(try .inMemory(), adminFiles: try AdminFiles(directory: site.admin)).test(.router) { client in
            let page = try await client.get("/admin/")
            #expect(page.status == .ok)
            #expect(page.headers[.referrerPolicy] == "no-referrer")
        }
    }
}
