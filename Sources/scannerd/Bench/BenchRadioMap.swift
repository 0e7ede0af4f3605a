#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Positioning
import ScanContract

/// The radio map `scannerd bench` locates with in locate mode: one floor holding the replayed
/// beacons and a 3 × 3 grid of surveyed locations whose fingerprints follow free-space path loss
/// from them, so that the locator works as hard as on a surveyed floor.
enum BenchRadioMap {
    static func map(beacons: [BeaconID], measuredPower: Int) -> RadioMap {
        let floor = RadioMapFloor(floorID: 1, building: "bench", level: 0)
        let placed = beacons.enumerated().map { index, beacon in
            Beacon(
                id: Int64(index + 1), uuid: beacon.uuid, major: beacon.major, minor: beacon.minor, floorID: floor.floorID,
                x: Double(index % 3) * 8, y: Double(index / 3) * 8, measuredPower: measuredPower
            )
        }
        var locations: [RadioMapLocation] = []
        for row in 0..<3 {
            for column in 0..<3 {
                let (x, y) = (Double(column) * 5 + 1, Double(row) * 5 + 1)
                var heard: [Emitter: Double] = [:]
                for beacon in placed {
                    let metres = max(1, ((beacon.x - x) * (beacon.x - x) + (beacon.y - y) * (beacon.y - y)).squareRoot())
                    heard[.beacon(BeaconID(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor))] =
                        Double(measuredPower) - 20 * log10(metres)
                }
                locations.append(RadioMapLocation(
                    locationID: Int64(locations.count + 1), floorID: floor.floorID, roomID: 1, x: x, y: y,
                    emitters: heard.map { EmitterFingerprint(emitter: $0.key, mean: $0.value, spread: 2, count: 1) }
                        .sorted { $0.mean > $1.mean },
                    scans: [heard]
                ))
            }
        }
        return RadioMap(floors: [floor], beacons: placed, locations: locations)
    }
}
