import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import switchd
@testable import SwitchdStore

/// docs/openapi.yaml describes exactly what switchd serves: every route the router has is in the
/// document with its method, and the document names no route the router lacks.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    static let documentPath = repositoryFile("docs/openapi.yaml")

    /// `METHOD /path` with every path parameter written `{}`.
    static func normalise(_ method: String, _ path: String) -> String {
        let segments = path.split(separator: "/").map { segment -> String in
            segment.hasPrefix(":") || segment.hasPrefix("{") ? "{}" : String(segment)
        }
        return method.uppercased() + " /" + segments.joined(separator: "/")
    }

    /// The operations of the document's `paths:` section, read line by line (two-space indented
    /// paths, four-space indented methods).
    static func documentedOperations() throws -> Set<String> {
        let text = try String(contentsOfFile: documentPath, encoding: .utf8)
        var operations = Set<String>()
        var currentPath: String?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            if inPaths, !line.hasPrefix(" "), !line.isEmpty { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let currentPath, line.hasPrefix("    "), !line.hasPrefix("     ") {
                let key = line.dropFirst(4).prefix { $0 != ":" }
                if ["get", "post", "put", "patch", "delete"].contains(String(key)) {
                    operations.insert(normalise(String(key), currentPath))
                }
            }
        }
        return operations
    }

    @Test func everyRouteIsDocumentedAndNothingElse() async throws {
        let database = try AppDatabase.inMemory()
        // Token 1 is a spare: probing DELETE /v1/tokens/1 revokes it, not the admin's.
        _ = try await issueToken(database, .reader, name: "spare")
        let admin = try await issueToken(database, .admin)
        let router = buildRouter(SwitchdDependencies(
            settings: Settings(host: "127.0.0.1", port: 0, stateDirectory: "unused", maxBodyBytes: 1024, logLevel: .info),
            database: database, logger: Logger(label: "test")
        ))
        // Routes that only answer 405 (so that a wrong method is told, not 404'd) are not
        // operations; ask each route to find them.
        let routes = router.routes.map { route -> (method: HTTPRequest.Method, path: String, probe: String) in
            let probe = route.path.components.map { element -> String in
                let text = element.description
                return text.hasPrefix(":") || text.hasPrefix("{") ? "1" : text
            }.joined(separator: "/")
            return (route.method, route.path.description, "/" + probe)
        }
        let served = try await Application(router: router).test(.router) { client in
            var served = Set<String>()
            for route in routes {
                // A live feed never ends its answer; it is an operation, not a 405.
                if route.method == .get, route.path.hasSuffix("/stream") {
                    served.insert(Self.normalise(route.method.rawValue, route.path))
                    continue
                }
                let status = try await client.execute(
                    uri: route.probe, method: route.method, headers: bearer(admin), body: ByteBuffer(string: "{}")
                ) { $0.status }
                if status != .methodNotAllowed {
                    served.insert(Self.normalise(route.method.rawValue, route.path))
                }
            }
            return served
        }
        let documented = try Self.documentedOperations()
        #expect(documented.count >= 20, "the document was read: \(documented.count) operations")
        #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
    }
}
