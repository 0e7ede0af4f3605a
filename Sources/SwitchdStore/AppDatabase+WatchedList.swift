import GRDB
import ScanContract

/// What a listening scanner is asked to watch, in order of priority.
package struct WatchedIdentities: Sendable, Equatable {
    /// Every registered tag's identity, oldest first.
    package var tags: [TagIdentity]
    /// The registered beacons of the scanner's building, those of its floor first, each floor's
    /// nearest first; none when the scanner is not placed (its sightings would calibrate
    /// nothing). A beacon that is also a tag is left to ``tags``.
    package var beacons: [TagIdentity]

    package var all: [TagIdentity] { tags + beacons }
}

extension AppDatabase {
    /// The identities `scannerID` watches when it listens (``WatchedIdentities``). An unknown
    /// scanner watches the tags only.
    package func watchedIdentities(of scannerID: ScannerID) async throws -> WatchedIdentities {
        try await read { db in
            let tags = try TagRecord.order(TagRecord.Columns.id).fetchAll(db).map { try $0.tag().identity }
            let rows = try Row.fetchAll(db, sql: """
                SELECT b.uuid, b.major, b.minor
                FROM scanner_placement p
                JOIN floor pf ON pf.id = p.floor_id
                JOIN floor bf ON bf.building = pf.building
                JOIN beacon b ON b.floor_id = bf.id
                WHERE p.scanner_id = ?
                ORDER BY b.floor_id <> p.floor_id, (b.x - p.x) * (b.x - p.x) + (b.y - p.y) * (b.y - p.y), b.id
                """, arguments: [scannerID.rawValue])
            let tagKeys = Set(tags.map(\.key))
            let beacons = try rows.map { row -> TagIdentity in
                guard let major = UInt16(exactly: row["major"] as Int), let minor = UInt16(exactly: row["minor"] as Int) else {
                    throw StoreError.corruptRow("a beacon has an identity out of range")
                }
                return .iBeacon(BeaconID(uuid: row["uuid"], major: major, minor: minor))
            }
            return WatchedIdentities(tags: tags, beacons: beacons.filter { !tagKeys.contains($0.key) })
        }
    }
}
