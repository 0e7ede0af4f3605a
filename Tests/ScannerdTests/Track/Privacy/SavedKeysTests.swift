import Foundation
import Glibc
import ScanContract
import Testing
@testable import scannerd

/// The saved switch carries the watched phones' keys: only its owner may read it.
@Suite("Saved keys")
struct SavedKeysTests {
    @Test func theSavedSwitchIsReadableByItsOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("switch.json")
        // A file an older scannerd left readable by others is replaced by one of mode 0600.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o644]))
        var scanSwitch = ScanSwitch(scannerID: testScanner, changedAt: Date(timeIntervalSince1970: 0))
        scanSwitch.watchedTags = [.irk(IRKIdentity(fingerprint: "8ae5811774905ca9"))]
        scanSwitch.watchedKeys = [WatchedKey(fingerprint: "8ae5811774905ca9", key: try IdentityResolvingKey(parsing: PrivateAddressTests.sampleKey))]
        let store = SwitchStore(path: path)
        try store.save(scanSwitch)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let loaded = try #require(try store.load())
        #expect(loaded.watchedKeys == scanSwitch.watchedKeys)
        #expect(loaded.watchedIdentities == [.irk(IRKIdentity(fingerprint: "8ae5811774905ca9"))])
        guard case .irk(let irk)? = loaded.watchedIdentities.first else { return }
        #expect(irk.key?.hex == PrivateAddressTests.sampleKey, "the key comes back from the saved switch after a restart")
    }
}
