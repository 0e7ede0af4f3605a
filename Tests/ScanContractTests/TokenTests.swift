import Foundation
import ScanContract
import Testing

@Suite("v1 tokens: what may be issued")
struct TokenTests {
    @Test func onlyScannerTokensNameAScannerAndTheyMust() throws {
        let pi = try ScannerID("pi-1")
        #expect(throws: Never.self) { try NewToken(role: .scanner, scannerID: pi).validate() }
        #expect(throws: Never.self) { try NewToken(role: .reader).validate() }
        #expect(throws: ValidationError(field: "scannerID", reason: "a scanner token must name the scanner it speaks for")) {
            try NewToken(role: .scanner).validate()
        }
        for role in [TokenRole.admin, .reader] {
            let error = #expect(throws: ValidationError.self) { try NewToken(role: role, scannerID: pi).validate() }
            #expect(error?.field == "scannerID")
        }
        #expect(throws: ValidationError.self) { try NewToken(name: "  ", role: .reader).validate() }
    }

    @Test func theNameDefaultsToTheRoleAndScanner() throws {
        #expect(NewToken(role: .reader).effectiveName == "reader")
        #expect(NewToken(role: .scanner, scannerID: try ScannerID("pi-1")).effectiveName == "scanner pi-1")
        #expect(NewToken(name: "wall", role: .reader).effectiveName == "wall")
    }

    @Test func theJSONShapeIsStable() throws {
        let json = String(decoding: try JSONCoding.encoder().encode(NewToken(role: .scanner, scannerID: .default)), as: UTF8.self)
        #expect(json.contains("\"role\":\"scanner\"") && json.contains("\"scannerID\":\"default\""), "\(json)")
        let decoded = try JSONCoding.decoder().decode(NewToken.self, from: Data(#"{"role":"reader"}"#.utf8))
        #expect(decoded == NewToken(role: .reader))
        #expect(throws: DecodingError.self) { try JSONCoding.decoder().decode(NewToken.self, from: Data(#"{"role":"root"}"#.utf8)) }
    }
}
