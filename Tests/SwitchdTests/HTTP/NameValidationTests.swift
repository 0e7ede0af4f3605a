import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Names (floors, rooms, buildings, scanners, tokens) never hold control characters: 422 naming
/// the field and the character, and nothing is stored.
@Suite("Names: no control characters")
struct NameValidationTests {
    @Test(arguments: ["Ground\u{07}", "G\nround", "tab\there", "esc\u{1B}[31m", "del\u{7F}", "c1\u{85}"])
    func aNameWithAControlCharacterIs422(_ name: String) async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let before = try await StoredCounts(database)
            let response = try await client.execute(uri: "/v1/floors", method: .post, body: try jsonBody(NewFloor(name: name)))
            #expect(response.status == .unprocessableContent)
            let error = try errorBody(response)
            #expect(error.field == "name")
            #expect(error.message.contains("control characters"), "\(error.message)")
            #expect(try await StoredCounts(database) == before)
        }
    }

    @Test func printableUnicodeNamesAreKept() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Étage 2 — Süd ✓"), as: Floor.self)
            #expect(floor.name == "Étage 2 — Süd ✓")
        }
    }
}
