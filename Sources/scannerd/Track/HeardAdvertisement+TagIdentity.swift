#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RadioWire
import ScanContract

extension HeardAdvertisement {
    /// Every identity this advertisement names a tag by: its beacon frames (iBeacon,
    /// Eddystone-UID, AltBeacon) mapped from RadioWire's wire values into the contract's
    /// ``TagIdentity``, then its device address. What track mode matches watched tags against.
    var tagIdentities: [TagIdentity] {
        var identities = frames.map { frame -> TagIdentity in
            switch frame {
            case .iBeacon(let beacon):
                .iBeacon(BeaconID(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor))
            case .eddystoneUID(let beacon):
                .eddystoneUID(namespace: lowercaseHex(beacon.namespace), instance: lowercaseHex(beacon.instance))
            case .altBeacon(let beacon):
                .altBeacon(lowercaseHex(beacon.beaconID))
            }
        }
        identities.append(.address(MACAddress(rawValue: advertisement.address.rawValue)))
        return identities
    }
}
