import ScanContract

/// What a listening scanner is asked to watch, in order of priority.
package struct WatchedIdentities: Sendable, Equatable {
    /// Every registered tag's identity, oldest first.
    package var tags: [TagIdentity]
    /// The registered beacons of the scanner's building, those of its floor first, each floor's
    /// nearest first; none when the scanner is not placed (its sightings would calibrate
    /// nothing). A beacon that is also a tag is left to ``tags``.
    package var beacons: [TagIdentity]
    /// The sealed keys of the `irk` tags among ``tags`` (``SchemaTagKeys``), by fingerprint.
    package var sealedKeys: [String: String] = [:]

    package var all: [TagIdentity] { tags + beacons }
}

extension AppDatabase {
    /// The identities `scannerID` watches when it listens (``WatchedIdentities``). An unknown
    /// scanner watches the tags only.
    package func watchedIdentities(of scannerID: ScannerID) async throws -> WatchedIdentities {
        try await readStatements { sql in
            let tags = try TagRecord.fetchAll(sql).map { try $0.tag().identity }
            let rows = try sql.rows("""
                SELECT b.uuid, b.major, b.minor
                FROM scanner_placement p
                JOIN floor pf ON pf.id = p.floor_id
                JOIN floor bf ON bf.building = pf.building
                JOIN beacon b ON b.floor_id = bf.id
                WHERE p.scanner_id = ?
                ORDER BY b.floor_id <> p.floor_id, (b.x - p.x) * (b.x - p.x) + (b.y - p.y) * (b.y - p.y), b.id
                """, [.text(scannerID.rawValue)])
            let tagKeys = Set(tags.map(\.key))
            let beacons = try rows.map { row -> TagIdentity in
                guard let major = UInt16(exactly: try row.int("major")), let minor = UInt16(exactly: try row.int("minor")) else {
                    throw StoreError.corruptRow("a beacon has an identity out of range")
                }
                return .iBeacon(BeaconID(uuid: try row.uuid("uuid"), major: major, minor: minor))
            }
            return WatchedIdentities(tags: tags, beacons: beacons.filter { !tagKeys.contains($0.key) }, sealedKeys: try Self.sealedKeys(sql))
        }
    }

    /// Every `irk` tag's sealed key, by fingerprint: what switchd checks it can open when it
    /// starts (a tag-keys.key that is not the one the keys were sealed under).
    package func sealedTagKeys() async throws -> [String: String] {
        try await readStatements { sql in try Self.sealedKeys(sql) }
    }

    private static func sealedKeys(_ sql: any StoreTransaction) throws -> [String: String] {
        var sealedKeys: [String: String] = [:]
        for row in try sql.rows("SELECT t.identity, k.sealed FROM tag_key k JOIN tag t ON t.id = k.tag_id", []) {
            guard case .irk(let irk)? = try? TagIdentity(key: try row.string("identity")) else { continue }
            sealedKeys[irk.fingerprint] = try row.string("sealed")
        }
        return sealedKeys
    }
}

extension AppDatabase {
    /// The channel a change of what listening scanners watch is announced on (docs/scale-out.md,
    /// "Fan-out across instances").
    package static let watchedChannel = "floorscan_watched"

    /// Announces, when the transaction commits, that what listening scanners watch changed (a
    /// tag, a placement, a beacon or a floor), so every instance's held long-polls asking for
    /// the watched list read it again. Nothing on SQLite, whose one process bumps its own hub.
    static func announceWatchedChange(in sql: any StoreTransaction) throws {
        try sql.notify(watchedChannel, "changed")
    }
}
