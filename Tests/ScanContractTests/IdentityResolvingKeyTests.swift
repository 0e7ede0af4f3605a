import Foundation
import ScanContract
import Testing

/// `irk` tag identities: the key read in the forms the common tools print, and never written.
@Suite struct IdentityResolvingKeyTests {
    /// The Core specification's sample key (Vol 3 Part H, Appendix D.7), most significant byte first.
    static let sample = "ec0234a357c8ad05341010a60a397d9b"

    @Test func readsHexAndBase64InBothByteOrders() throws {
        let expected = try #require(Self.hexBytes(Self.sample))
        // Hex: most significant first unless told (the spec, ESPresense, Home Assistant's hex).
        #expect(try IdentityResolvingKey(parsing: Self.sample).bytes == expected)
        #expect(try IdentityResolvingKey(parsing: "irk:" + Self.sample.uppercased()).bytes == expected)
        #expect(try IdentityResolvingKey(parsing: "0xEC:02:34:A3:57:C8:AD:05:34:10:10:A6:0A:39:7D:9B").bytes == expected)
        // BlueZ's info file prints the bytes least significant first.
        #expect(try IdentityResolvingKey(parsing: "9B7D390AA610103405ADC857A33402EC", order: .lsbFirst).bytes == expected)
        // Base64: least significant first unless told (Home Assistant's Private BLE Device, the macOS keychain).
        #expect(try IdentityResolvingKey(parsing: "m305CqYQEDQFrchXozQC7A==").bytes == expected)
        #expect(try IdentityResolvingKey(parsing: "7AI0o1fIrQU0EBCmCjl9mw==", order: .msbFirst).bytes == expected)
        #expect(try IdentityResolvingKey(parsing: Self.sample).hex == Self.sample)
    }

    @Test func badKeysAreNamedWithoutEchoingThem() {
        let cases: [(String, String)] = [
            ("ec0234a357c8ad05341010a60a397d", "30 hex digits"),
            ("ec0234a357c8ad05341010a60a397d9bff", "34 hex digits"),
            ("zz0234a357c8ad05341010a60a397d9b", "not all are hex digits"),
            ("7AI0o1fIrQU0EBCm", "base64 of 12 bytes"),
            ("not a key!", "neither"),
            // Fullwidth digits are hex digits to `Character.isHexDigit` but not to `UInt8(_:radix:)`:
            // once a trap (a scanner's sighting could carry them).
            (String(repeating: "\u{FF10}", count: 32), "not all are hex digits"),
            (String(repeating: "\u{FF21}", count: 31) + "0", "not all are hex digits"),
        ]
        for (text, reason) in cases {
            let error = #expect(throws: FieldError.self) { try IdentityResolvingKey(parsing: text) }
            let message = error?.reason ?? ""
            #expect(message.contains(reason) && !message.contains(text), "\(text): \(message)")
        }
    }

    @Test func anIRKIdentityIsWrittenByItsFingerprintOnly() throws {
        let key = try IdentityResolvingKey(parsing: Self.sample)
        let identity = TagIdentity.irk(IRKIdentity(fingerprint: "0123456789abcdef", key: key))
        let json = String(decoding: try JSONCoding.encoder().encode(identity), as: UTF8.self)
        #expect(json.contains("\"fingerprint\":\"0123456789abcdef\"") && json.contains("\"kind\":\"irk\""))
        #expect(!json.lowercased().contains(Self.sample) && !json.contains("key"))
        var dumped = ""
        dump(identity, to: &dumped)
        for text in ["\(identity)", "\(key)", String(reflecting: identity), String(reflecting: key), dumped] {
            #expect(!text.contains(Self.sample) && !text.contains("236"), "\(text)") // 0xec = 236, the first byte
        }
        #expect(identity.key == "irk:0123456789abcdef")
        #expect(try TagIdentity(key: identity.key) == identity, "the same by fingerprint")
        #expect(try JSONCoding.decoder().decode(TagIdentity.self, from: Data(json.utf8)) == identity)
    }

    @Test func aRequestGivesTheKeyAndItsByteOrder() throws {
        let body = #"{"kind":"irk","key":"9b7d390aa610103405adc857a33402ec","keyByteOrder":"lsb-first"}"#
        guard case .irk(let irk) = try JSONCoding.decoder().decode(TagIdentity.self, from: Data(body.utf8)) else {
            Issue.record("not an irk identity")
            return
        }
        #expect(irk.key?.hex == Self.sample && irk.fingerprint.isEmpty)
        #expect(throws: DecodingError.self) {
            try JSONCoding.decoder().decode(TagIdentity.self, from: Data(#"{"kind":"irk","key":"abc"}"#.utf8))
        }
    }

    @Test func theWatchedListCarriesKeysInItsRoom() throws {
        let key = try IdentityResolvingKey(parsing: Self.sample)
        let irk = TagIdentity.irk(IRKIdentity(fingerprint: "0123456789abcdef"))
        let base = ScanSwitch(scannerID: .default, changedAt: Date(timeIntervalSince1970: 0))
        let fitted = try WatchedTags.fitting([irk], keys: ["0123456789abcdef": key], in: base)
        #expect(fitted.watchedTags == [irk] && fitted.watchedKeys == [WatchedKey(fingerprint: "0123456789abcdef", key: key)])
        #expect(try WatchedTags.fitting([irk], in: base).watchedKeys == nil)
    }

    static func hexBytes(_ hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
