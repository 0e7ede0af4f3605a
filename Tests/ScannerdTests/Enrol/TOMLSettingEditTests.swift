import Testing
@testable import scannerd

/// `scannerd enrol` edits the operator's settings file: only the keys it sets change, in place.
@Suite("scannerd enrol: the settings file's edit")
struct TOMLSettingEditTests {
    static let shipped = """
        # switchd's base URL.
        #switchd = "http://127.0.0.1:8080"

        # This scanner's ID on switchd.
        scanner-id = "old"
        batch-size = 100

        """

    @Test func anActiveKeyIsReplacedInPlaceAndACommentedOneGetsItsLineAfterTheDefault() {
        var text = TOMLSettingEdit.setting("scanner-id", to: "pi-2", in: Self.shipped)
        text = TOMLSettingEdit.setting("switchd", to: "https://switchd.example:8443", in: text)
        text = TOMLSettingEdit.setting("pin", to: "sha256//abc=", in: text)
        #expect(text == """
            # switchd's base URL.
            #switchd = "http://127.0.0.1:8080"
            switchd = "https://switchd.example:8443"

            # This scanner's ID on switchd.
            scanner-id = "pi-2"
            batch-size = 100
            pin = "sha256//abc="

            """)
    }

    @Test func valuesAreQuotedAsTOMLBasicStrings() {
        #expect(TOMLSettingEdit.quoted(#"C:\x "y""#) == #""C:\\x \"y\"""#)
        #expect(TOMLSettingEdit.quoted("a\u{1}b") == #""a\u0001b""#)
        #expect(TOMLSettingEdit.setting("token-file", to: "/etc/t", in: "") == "token-file = \"/etc/t\"\n")
    }

    @Test func onlyWholeKeysMatch() {
        #expect(TOMLSettingEdit.keyOf("switchd-extra = 1", commented: false) == "switchd-extra")
        #expect(TOMLSettingEdit.keyOf("# switchd's base URL.", commented: true) == nil)
        #expect(TOMLSettingEdit.keyOf("  #  switchd = \"x\"", commented: true) == "switchd")
        #expect(TOMLSettingEdit.keyOf("#switchd = \"x\"", commented: false) == nil)
    }

    @Test func aPinIsSha256AndTheBase64Of32Bytes() {
        #expect(CurlTrust.isPin("sha256//" + String(repeating: "A", count: 43) + "="))
        #expect(!CurlTrust.isPin("sha256//abc="))
        #expect(!CurlTrust.isPin("md5//" + String(repeating: "A", count: 43) + "="))
    }
}

/// `scannerd enrol`'s checks before it sends the code.
@Suite("scannerd enrol: what it refuses before spending a code")
struct EnrolGuardTests {
    @Test func onlyLoopbackAddressesMayBePlainHTTP() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] { #expect(EnrolCommand.isLoopback(host), "\(host)") }
        for host in ["127.0.0.1.nip.io", "127.example.com", "10.0.0.1", "128.0.0.1", "switchd.local"] {
            #expect(!EnrolCommand.isLoopback(host), "\(host)")
        }
    }

    @Test func theOtherTrustIsCommentedOutSoScannerdStarts() {
        let text = "ca-file = \"/etc/floorscan/tls/switchd.crt\"\n#pin = \"sha256//x\"\n"
        let edited = TOMLSettingEdit.setting("pin", to: "sha256//new=", in: TOMLSettingEdit.commentingOut("ca-file", in: text))
        #expect(edited == "#ca-file = \"/etc/floorscan/tls/switchd.crt\"\n#pin = \"sha256//x\"\npin = \"sha256//new=\"\n")
    }
}
