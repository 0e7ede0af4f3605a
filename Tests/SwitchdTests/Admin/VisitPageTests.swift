import Foundation
import HummingbirdTesting
import Testing
@testable import switchd

/// The visitor page at `/visit/`, from the repository's `share/visit`, beside the admin page.
@Suite struct VisitPageTests {
    @Test func theVisitorPageIsServedBesideTheAdminPage() async throws {
        let visit = try AdminFiles(directory: try #require(AdminDirectory.search(executable: nil, page: "visit")))
        let admin = try AdminFiles(directory: try #require(AdminDirectory.search(executable: nil)))
        try await makeApp(try .inMemory(), adminFiles: admin, visitFiles: visit).test(.live) { client in
            let page = try await client.get("/visit/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: page.body).contains("js/visit.js"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let redirect = try await client.get("/visit")
            #expect(redirect.status == .permanentRedirect && redirect.headers[.location] == "visit/")
            #expect(try await client.get("/visit/../admin/index.html").status == .notFound)
            #expect(try await client.get("/admin/").status == .ok)
        }
        try await makeApp(try .inMemory(), adminFiles: admin).test(.router) { client in
            let missing = try await client.get("/visit/")
            #expect(missing.status == .notFound)
            #expect(try errorBody(missing).message.contains("--visit-dir"))
        }
    }

    /// Every module the visitor page imports is a file of the visitor or the admin folder, as
    /// the browser resolves it from `/visit/js/`.
    @Test func theVisitorPageImportsOnlyFilesThatExist() throws {
        let visit = try AdminFiles(directory: try #require(AdminDirectory.search(executable: nil, page: "visit")))
        let admin = try AdminFiles(directory: try #require(AdminDirectory.search(executable: nil)))
        let served = Set(visit.paths.map { "/visit/\($0)" } + admin.paths.map { "/admin/\($0)" })
        let pattern = try NSRegularExpression(pattern: #"from '([^']+)'"#)
        var imports = 0
        for path in visit.paths where path.hasSuffix(".js") {
            let text = String(buffer: try #require(visit[path]).body)
            let base = URL(string: "http://switchd/visit/\(path)")!
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let module = (text as NSString).substring(with: match.range(at: 1))
                let resolved = try #require(URL(string: module, relativeTo: base)).absoluteURL.standardized.path
                #expect(served.contains(resolved), "\(path) imports \(module) → \(resolved)")
                imports += 1
            }
        }
        #expect(imports >= 4)
        let index = String(buffer: try #require(visit["index.html"]).body)
        for file in ["visit.css", "js/visit.js", "icon.svg"] {
            #expect(index.contains("\"\(file)\"") && visit[file] != nil, "\(file)")
        }
    }
}
