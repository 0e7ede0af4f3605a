import CBluetooth
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RadioWire
import ScanContract

/// One LE advertisement as the controller reported it, with the beacon frames in its data and
/// its Eddystone-TLM telemetry frame, if any.
struct HeardAdvertisement: Sendable, Equatable {
    var time: Date
    var advertisement: LEAdvertisement
    var frames: [BeaconFrame]
    var telemetry: EddystoneTLM? = nil

    /// What one packet read from the raw socket (H4 type byte first) held.
    struct Packet: Sendable, Equatable {
        var heard: [HeardAdvertisement] = []
        /// Why an event, or an advertisement's data, did not decode: each is one malformed report,
        /// skipped. The other advertisements of the event are kept.
        var malformed: [WireError] = []
    }

    /// Every advertisement in `packet`: none for packets that are not LE advertising reports.
    static func decode(_ packet: [UInt8], at time: Date) -> Packet {
        guard packet.first == UInt8(HCI_EVENT_PKT) else { return Packet() }
        var result = Packet()
        let advertisements: [LEAdvertisement]
        do {
            advertisements = try HCIEventPacket(bytes: packet[1...]).advertisements()
        } catch {
            result.malformed.append(error)
            return result
        }
        for advertisement in advertisements {
            do {
                let structures = try ADStructure.parse(advertisement.data, origin: advertisement.dataOffset)
                var heard = HeardAdvertisement(time: time, advertisement: advertisement, frames: try BeaconFrame.all(in: structures))
                // A broken TLM frame is counted as malformed, and the advertisement is still heard.
                do {
                    heard.telemetry = try EddystoneTLM.first(in: structures)
                } catch {
                    result.malformed.append(error)
                }
                result.heard.append(heard)
            } catch {
                result.malformed.append(error)
            }
        }
        return result
    }

    /// The iBeacon readings in it: what positioning uses. None when the RSSI was not measured.
    var readings: [RadioReading] {
        guard let rssi = advertisement.rssi else { return [] }
        return frames.compactMap { frame in
            guard case .iBeacon(let beacon) = frame else { return nil }
            let observation = BLEObservation(
                address: BLEAddress(rawValue: advertisement.address.rawValue),
                beacon: BeaconID(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor), txPower: beacon.measuredPower
            )
            return RadioReading(observation: .ble(observation), rssi: rssi, time: time)
        }
    }
}
