import Foundation
import PostgresNIO

/// A batch's readings in one statement of one fixed text on PostgreSQL: each column bound as one
/// binary array and the rows made by `unnest` (docs/scale-out.md, "Phases", 4), instead of a
/// multi-row `VALUES` whose text, and so whose plan, changes with the row count. PostgresNIO binds
/// no array with NULL elements: a nullable integer column goes as a `bigint[]` whose
/// ``absent`` stands for NULL, a nullable text or UUID column as its array plus a `boolean[]`
/// saying which are NULL.
extension MeasurementRecord {
    /// What stands for NULL in a nullable integer column's array: no stored integer is this.
    static let absent = Int64.min
    /// What stands in a NULL beacon UUID's place in its array (its `boolean[]` says NULL).
    static let nilUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    static let unnestInsertSQL = """
        INSERT INTO measurement (
            uuid, batch_id, scanner_id, revision, mode, room_id, location_id, kind, time_ms, rssi, scan, address,
            ssid, frequency_mhz, beacon_uuid, major, minor, tx_power
        )
        SELECT r.uuid, r.batch_id, r.scanner_id, r.revision, r.mode, NULLIF(r.room_id, $20), NULLIF(r.location_id, $20), r.kind,
            r.time_ms, r.rssi, r.scan, r.address, CASE WHEN r.no_ssid THEN NULL ELSE r.ssid END, NULLIF(r.frequency_mhz, $20),
            CASE WHEN r.no_beacon THEN NULL ELSE r.beacon_uuid END, NULLIF(r.major, $20), NULLIF(r.minor, $20), NULLIF(r.tx_power, $20)
        FROM unnest(
            $1::uuid[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], $9::bigint[],
            $10::bigint[], $11::bigint[], $12::bigint[], $13::text[], $14::boolean[], $15::bigint[], $16::uuid[], $17::boolean[],
            $18::bigint[], $19::bigint[], $21::bigint[]
        ) WITH ORDINALITY AS r(
            uuid, batch_id, scanner_id, revision, mode, room_id, location_id, kind, time_ms, rssi, scan, address,
            ssid, no_ssid, frequency_mhz, beacon_uuid, no_beacon, major, minor, tx_power, position
        )
        ORDER BY r.position
        ON CONFLICT (uuid) DO NOTHING
        RETURNING sequence, uuid
        """

    /// `records` as the binds of ``unnestInsertSQL``.
    static func unnestBindings(_ records: [MeasurementRecord]) -> PostgresBindings {
        func column(_ value: (MeasurementRecord) -> Int64?) -> [Int64] { records.map { value($0) ?? absent } }
        var binds = PostgresBindings()
        binds.append(records.map(\.uuid))
        binds.append(records.map(\.batchID))
        binds.append(records.map(\.scannerID))
        binds.append(records.map { Int64($0.revision) })
        binds.append(records.map(\.mode))
        binds.append(column(\.roomID))
        binds.append(column(\.locationID))
        binds.append(records.map(\.kind))
        binds.append(records.map(\.timeMs))
        binds.append(records.map { Int64($0.rssi) })
        binds.append(records.map { Int64($0.scan) })
        binds.append(records.map(\.address))
        binds.append(records.map { $0.ssid ?? "" })
        binds.append(records.map { $0.ssid == nil })
        binds.append(column { $0.frequencyMHz.map(Int64.init) })
        binds.append(records.map { $0.beaconUUID ?? nilUUID })
        binds.append(records.map { $0.beaconUUID == nil })
        binds.append(column { $0.major.map(Int64.init) })
        binds.append(column { $0.minor.map(Int64.init) })
        binds.append(absent)
        binds.append(column { $0.txPower.map(Int64.init) })
        return binds
    }
}
