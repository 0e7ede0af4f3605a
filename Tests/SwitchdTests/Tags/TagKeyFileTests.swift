import Foundation
import Logging
import ScanContract
import Testing
@testable import switchd

/// `<state-dir>/tag-keys.key`: made once with mode 0600, the same sealer on every start, and a
/// start whose file does not open the stored keys says so (several switchd on one database with
/// files of their own).
@Suite("The phone-key file")
struct TagKeyFileTests {
    static func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("switchd-tag-keys-\(UUID().uuidString)").path
    }

    static func sealed(_ sealer: TagKeySealer) throws -> [String: String] {
        let key = IdentityResolvingKey(bytes: Array(0..<16))
        let (identity, sealedKey) = try sealer.sealing(.irk(IRKIdentity(fingerprint: "", key: key)))
        guard case .irk(let irk) = identity, let sealedKey else { throw CocoaError(.coderInvalidValue) }
        return [irk.fingerprint: sealedKey]
    }

    static func logged(_ sealed: [String: String], _ sealer: TagKeySealer, in directory: String) -> [String] {
        let sink = TokenLoggingTests.LogLines()
        let logger = Logger(label: "test") { _ in TokenLoggingTests.CollectingHandler(sink: sink) }
        TagKeyFile.checkOpens(sealed, with: sealer, stateDirectory: directory, logger: logger)
        return sink.all
    }

    @Test func madeOnceThenReadTheSame() throws {
        let first = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: first) }
        let made = try TagKeyFile.sealer(stateDirectory: first)
        let mode = try FileManager.default.attributesOfItem(atPath: first + "/" + TagKeyFile.name)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let sealed = try Self.sealed(made)
        let again = try TagKeyFile.sealer(stateDirectory: first)
        #expect(again.opening(sealed).unopened == 0, "the second start reads the key the first made")
        #expect(Self.logged(sealed, again, in: first).isEmpty)
    }

    @Test func anotherInstancesFileIsReportedAtStart() throws {
        let (first, second) = (Self.directory(), Self.directory())
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let sealed = try Self.sealed(try TagKeyFile.sealer(stateDirectory: first))
        let lines = Self.logged(sealed, try TagKeyFile.sealer(stateDirectory: second), in: second)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasPrefix("error ") && line.contains("\"unopened\": 1") && line.contains("\(second)/tag-keys.key"))
        #expect(Self.logged([:], try TagKeyFile.sealer(stateDirectory: second), in: second).isEmpty, "no keys stored: nothing to say")
    }
}
