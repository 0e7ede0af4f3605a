import ScanContract

/// The parts of a resolvable private address (Core Vol 6 Part B §1.3.2.2): the 24 most
/// significant bits are `prand` (its two top bits 01), the 24 least significant the `hash`,
/// `ah(IRK, prand)`.
enum PrivateAddress {
    /// Whether `address` is a resolvable private address: the two most significant bits are 01.
    /// (A public or static address may look like one; resolution then finds no key.)
    static func isResolvable(_ address: MACAddress) -> Bool { address.rawValue >> 46 == 0b01 }

    static func prand(of address: MACAddress) -> UInt32 { UInt32(truncatingIfNeeded: address.rawValue >> 24) & 0xFF_FFFF }

    static func hash(of address: MACAddress) -> UInt32 { UInt32(truncatingIfNeeded: address.rawValue) & 0xFF_FFFF }

    /// Whether `cipher`'s key generated `address` (which must be resolvable).
    static func resolves(_ address: MACAddress, with cipher: ResolvingCipher) -> Bool {
        cipher.ah(prand(of: address)) == hash(of: address)
    }

    /// The resolvable private address `cipher`'s key makes from `random` (its 22 low bits are
    /// used, the top two set to 01), as a phone makes one every 15 minutes or so; nil when
    /// libcrypto fails. For tests, the bench and the radio lab.
    static func make(random: UInt32, with cipher: ResolvingCipher) -> MACAddress? {
        let prand = random & 0x3F_FFFF | 0x40_0000
        guard let hash = cipher.ah(prand) else { return nil }
        return MACAddress(rawValue: UInt64(prand) << 24 | UInt64(hash))
    }
}
