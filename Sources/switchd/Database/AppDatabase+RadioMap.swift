import Foundation
import GRDB
import Positioning
import ScanContract

/// The survey version: which state of the survey a radio map was built from.
struct SurveyVersion: Hashable, Sendable {
    /// Random per database file.
    var token: String
    /// Bumped by triggers on every change the radio map depends on (``SurveyVersionTable``).
    var version: Int64

    /// A strong ETag: equal exactly when the map is built from the same survey state.
    var entityTag: String { "\"\(token)-\(version)\"" }
}

extension AppDatabase {
    func surveyVersion() async throws -> SurveyVersion {
        try await writer.read { db in try Self.surveyVersion(in: db) }
    }

    /// The radio map of the survey as stored now, with the version it was built from, read in
    /// one snapshot.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored row is not what switchd writes.
    func radioMap() async throws -> (map: RadioMap, version: SurveyVersion) {
        try await writer.read { db in
            let version = try Self.surveyVersion(in: db)
            let floors = try Row.fetchAll(db, sql: "\(Self.floorSelect) ORDER BY floor.building, floor.level, floor.id").map(Self.floor(from:))
            let locations = try Row.fetchAll(db, sql: "\(Self.locationSelect) ORDER BY location.id").map(Self.location(from:))
            var builder = RadioMapBuilder(floors: floors, beacons: try Self.allBeacons(in: db), locations: locations)
            let readings = try Row.fetchCursor(db, sql: """
                SELECT location_id, scanner_id, revision, scan, kind, address, beacon_uuid, major, minor, rssi, sequence
                FROM measurement
                WHERE mode = 'survey' AND location_id IS NOT NULL
                """)
            while let row = try readings.next() {
                builder.add(try Self.surveyReading(from: row))
            }
            return (builder.build(), version)
        }
    }

    private static func surveyVersion(in db: Database) throws -> SurveyVersion {
        guard let row = try Row.fetchOne(db, sql: "SELECT token, version FROM survey_version WHERE id = 1") else {
            throw StoreError.corruptRow("survey_version has no row")
        }
        return SurveyVersion(token: row[0], version: row[1])
    }

    private static func surveyReading(from row: Row) throws -> SurveyReading {
        let kindText: String = row[4]
        let addressBits: Int64 = row[5]
        let address = MACAddress(rawValue: UInt64(bitPattern: addressBits))
        let emitter: Emitter
        switch RadioKind(rawValue: kindText) {
        case .wifi:
            emitter = .accessPoint(address)
        case .ble:
            guard let uuid: UUID = row[6], let major = UInt16(exactly: row[7] as Int? ?? -1), let minor = UInt16(exactly: row[8] as Int? ?? -1) else {
                throw StoreError.corruptRow("measurement \(row[10] as Int64) is a BLE reading without a complete beacon identity")
            }
            emitter = .beacon(BeaconID(uuid: uuid, major: major, minor: minor))
        case nil:
            throw StoreError.corruptRow("measurement \(row[10] as Int64) holds kind \"\(kindText)\"")
        }
        let scan = SurveyScanKey(scannerID: row[1], revision: row[2], scan: row[3])
        return SurveyReading(locationID: row[0], scan: scan, emitter: emitter, rssi: row[9])
    }
}
