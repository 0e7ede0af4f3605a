import Positioning
import Foundation
import ScanContract
import Testing
@testable import scannerd

/// Resolvable private addresses: the Core specification's `ah()` and address round trips.
@Suite("Resolvable private addresses")
struct PrivateAddressTests {
    /// Core Vol 3 Part H, Appendix D.7: k = 0xec0234a357c8ad05341010a60a397d9b,
    /// prand = 0x708194, ah(k, prand) = 0x0dfbaa (all most significant byte first).
    static let sampleKey = "ec0234a357c8ad05341010a60a397d9b"

    static func cipher(_ hex: String = sampleKey) throws -> ResolvingCipher {
        try #require(ResolvingCipher(key: try IdentityResolvingKey(parsing: hex)))
    }

    @Test func ahMatchesTheCoreSpecificationSample() throws {
        #expect(try Self.cipher().ah(0x70_8194) == 0x0D_FBAA)
        // The same key as BlueZ's info file prints it (least significant byte first).
        let bluez = try #require(ResolvingCipher(key: try IdentityResolvingKey(parsing: "9B7D390AA610103405ADC857A33402EC", order: .lsbFirst)))
        #expect(bluez.ah(0x70_8194) == 0x0D_FBAA)
    }

    @Test func theSampleAddressResolvesAndItsNeighboursDoNot() throws {
        let cipher = try Self.cipher()
        let address = try MACAddress("70:81:94:0d:fb:aa")
        #expect(PrivateAddress.isResolvable(address))
        #expect(PrivateAddress.resolves(address, with: cipher))
        #expect(!PrivateAddress.resolves(try MACAddress("70:81:94:0d:fb:ab"), with: cipher))
        #expect(!PrivateAddress.resolves(try MACAddress("70:81:95:0d:fb:aa"), with: cipher))
        #expect(!PrivateAddress.isResolvable(try MACAddress("c0:81:94:0d:fb:aa")), "static random: top bits 11")
        #expect(!PrivateAddress.isResolvable(try MACAddress("30:81:94:0d:fb:aa")), "non-resolvable private: top bits 00")
    }

    @Test func madeAddressesResolveWithTheirKeyOnly() throws {
        let mine = try Self.cipher()
        let other = try Self.cipher("00112233445566778899aabbccddeeff")
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let address = try #require(PrivateAddress.make(random: UInt32(truncatingIfNeeded: generator.next()), with: mine))
            #expect(PrivateAddress.isResolvable(address))
            #expect(PrivateAddress.resolves(address, with: mine))
            #expect(!PrivateAddress.resolves(address, with: other))
        }
    }

    @Test func theResolverFindsTheWatchedPhoneAndCachesStrangers() throws {
        let key = try IdentityResolvingKey(parsing: Self.sampleKey)
        let phone = TagIdentity.irk(IRKIdentity(fingerprint: "00000000000000aa", key: key))
        let bike = TagIdentity.address(try MACAddress("aa:bb:cc:dd:ee:ff"))
        var resolver = AddressResolver(capacity: 4)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let heard = TagIdentity.address(try MACAddress("70:81:94:0d:fb:aa"))
        #expect(resolver.resolving([heard], at: time) == [heard], "no key watched: nothing resolved")
        #expect(resolver.cachedCount == 0)

        resolver.watch([phone, bike])
        #expect(resolver.keyCount == 1)
        #expect(resolver.resolving([heard], at: time) == [heard, phone])
        #expect(resolver.resolving([bike], at: time) == [bike], "a public address is not resolved")
        let stranger = TagIdentity.address(try MACAddress("70:81:94:0d:fb:ab"))
        #expect(resolver.resolving([stranger], at: time) == [stranger])
        #expect(resolver.cachedCount == 2, "the phone and the stranger, each resolved once")

        var generator = SeededGenerator(seed: 1)
        let other = try Self.cipher("00112233445566778899aabbccddeeff")
        for _ in 0..<10 {
            let address = try #require(PrivateAddress.make(random: UInt32(truncatingIfNeeded: generator.next()), with: other))
            _ = resolver.resolving([.address(address)], at: time.addingTimeInterval(AddressResolver.forgetAfter * 2))
        }
        #expect(resolver.cachedCount <= 4, "bounded")
        resolver.watch([bike])
        #expect(resolver.keyCount == 0 && resolver.cachedCount == 0)
    }
}
