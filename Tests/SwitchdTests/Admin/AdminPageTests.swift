import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `/admin/`: the admin page's files, each with the type of its extension, and nothing from
/// outside its folder.
@Suite struct AdminPageTests {
    /// A folder `admin` with a few files, beside a file that must never be served.
    struct Site {
        let root: URL
        var admin: String { root.appendingPathComponent("admin").path }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("admin-tests-\(UUID().uuidString)")
            let files: [String: String] = [
                "admin/index.html": "<!doctype html><title>t</title>",
                "admin/admin.css": "body {}",
                "admin/js/main.js": "export {};",
                "admin/icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
                "admin/.secret.html": "hidden",
                "admin/notes.sqlite": "not served",
                "outside.html": "outside the folder",
            ]
            for (path, text) in files {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }

        func remove() {
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test func eachFileIsServedWithTheTypeOfItsExtension() async throws {
        let site = try Site()
        defer { site.remove() }
        let files = try AdminFiles(directory: site.admin)
        #expect(files.paths == ["admin.css", "icon.svg", "index.html", "js/main.js"])
        try await makeApp(try .inMemory(), adminFiles: files).test(.router) { client in
            let expected: [(String, String, String)] = [
                ("/admin/", "text/html; charset=utf-8", "<!doctype html><title>t</title>"),
                ("/admin/index.html", "text/html; charset=utf-8", "<!doctype html><title>t</title>"),
                ("/admin/admin.css", "text/css; charset=utf-8", "body {}"),
                ("/admin/js/main.js", "text/javascript; charset=utf-8", "export {};"),
                ("/admin/icon.svg", "image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
            ]
            for (path, type, body) in expected {
                let response = try await client.get(path)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == type, "\(path)")
                #expect(String(buffer: response.body) == body, "\(path)")
                #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            }
            let redirect = try await client.get("/admin")
            #expect(redirect.status == .permanentRedirect)
            // Relative: resolved against /p/admin behind a proxy's prefix /p, it stays under /p.
            #expect(redirect.headers[.location] == "admin/")
            #expect(try await client.get("/v1/floors").status == .ok, "the API is not shadowed")
        }
    }

    @Test func nothingOutsideTheFolderOrHiddenOrOfAnUnknownTypeIsServed() async throws {
        let site = try Site()
        defer { site.remove() }
        try await makeApp(try .inMemory(), adminFiles: try AdminFiles(directory: site.admin)).test(.router) { client in
            let refused = [
                "/admin/../outside.html", "/admin/%2e%2e/outside.html", "/admin/%2E%2E%2Foutside.html", "/admin/js/../../outside.html",
                "/admin//outside.html", "/admin/.secret.html", "/admin/notes.sqlite", "/admin/missing.js", "/admin/js/",
                "/admin/%00index.html", "/admin/\(site.root.path)/outside.html",
            ]
            for path in refused {
                let response = try await client.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(String(buffer: response.body).contains("outside the folder") == false, "\(path)")
                #expect(try errorBody(response).code == "not_found", "\(path)")
            }
            let post = try await client.execute(uri: "/admin/index.html", method: .post)
            #expect(post.status == .methodNotAllowed)
        }
    }

    @Test func withoutAFolderTheAdminPathsSaySo() async throws {
        try await makeApp(try .inMemory(), adminFiles: nil).test(.router) { client in
            let response = try await client.get("/admin/")
            #expect(response.status == .notFound)
            #expect(try errorBody(response).message.contains("--admin-dir"))
        }
    }

    @Test func aMissingFolderIsAnError() throws {
        #expect(throws: AdminFilesError.self) { try AdminFiles(directory: "/nonexistent/floorscan-admin") }
    }

    @Test func theInstalledPlaceBesideTheExecutableComesFirst() throws {
        let site = try Site()
        defer { site.remove() }
        let installed = site.root.appendingPathComponent("usr/share/floorscan/admin")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        try Data("<!doctype html>".utf8).write(to: installed.appendingPathComponent("index.html"))
        let executable = site.root.appendingPathComponent("usr/bin/switchd")
        #expect(AdminDirectory.search(executable: executable) == installed.standardizedFileURL.path)
        // Without it, the source tree's share/admin.
        let fromSource = try #require(AdminDirectory.search(executable: site.root.appendingPathComponent("elsewhere/switchd")))
        #expect(fromSource.hasSuffix("/share/admin"))
    }

    /// The page in the repository: every file index.html names and every module a script
    /// imports is there, so the page loads without a 404.
    @Test func theShippedPageReferencesOnlyFilesItHas() throws {
        let folder = try #require(AdminDirectory.search(executable: nil))
        let files = try AdminFiles(directory: folder)
        let index = try #require(files["index.html"])
        var referenced = Self.references(in: String(buffer: index.body), pattern: ##"(?:src|href)="([^"#:]+)""##)
        for path in files.paths where path.hasSuffix(".js") {
            let directory = (path as NSString).deletingLastPathComponent
            let text = String(buffer: try #require(files[path]).body)
            for module in Self.references(in: text, pattern: #"from '\./([^']+)'"#) {
                referenced.insert(directory.isEmpty ? module : "\(directory)/\(module)")
            }
        }
        #expect(referenced.contains("js/main.js") && referenced.contains("js/api.js"))
        for path in referenced {
            #expect(files[path] != nil, "\(path) is referenced but not in \(folder)")
        }
    }

    static func references(in text: String, pattern: String) -> Set<String> {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return Set(expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        })
    }
}
