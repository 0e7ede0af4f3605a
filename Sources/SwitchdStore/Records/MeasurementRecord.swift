import Foundation
import GRDB
import Positioning
import ScanContract

/// A `measurement` row: one stored reading, tagged with the switch revision it was taken under.
/// The one place the row is spelled: ingest inserts through ``insertSQL`` and
/// ``insertArguments``, the feeds read ``StoredMeasurement``s and the radio map reads
/// ``SurveyReading``s, all from this record.
///
/// `address` is the BSSID of a Wi-Fi reading or the device address of a BLE one, as a 48-bit
/// integer; the Wi-Fi columns (`ssid`, `frequency_mhz`) and the BLE columns (`beacon_uuid`,
/// `major`, `minor`, `tx_power`) are NULL for the other kind.
struct MeasurementRecord: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "measurement"

    /// Given by SQLite (AUTOINCREMENT: never given out twice, even after deletes).
    var sequence: Int64?
    var uuid: UUID
    var batchID: Int64
    var scannerID: String
    var revision: Int
    var mode: String
    var roomID: Int64?
    var locationID: Int64?
    var kind: String
    var timeMs: Int64
    var rssi: Int
    var scan: Int
    var address: Int64
    var ssid: String?
    var frequencyMHz: Int?
    var beaconUUID: UUID?
    var major: Int?
    var minor: Int?
    var txPower: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case sequence, uuid, batchID = "batch_id", scannerID = "scanner_id", revision, mode
        case roomID = "room_id", locationID = "location_id", kind, timeMs = "time_ms", rssi, scan, address
        case ssid, frequencyMHz = "frequency_mhz", beaconUUID = "beacon_uuid", major, minor, txPower = "tx_power"
    }

    enum Columns {
        static let sequence = Column(CodingKeys.sequence)
        static let scannerID = Column(CodingKeys.scannerID)
        static let mode = Column(CodingKeys.mode)
        static let roomID = Column(CodingKeys.roomID)
        static let locationID = Column(CodingKeys.locationID)
        static let kind = Column(CodingKeys.kind)
        static let timeMs = Column(CodingKeys.timeMs)
    }

    /// The columns ingest writes, in the order of ``insertArguments``: all but `sequence`.
    static let insertedColumns = CodingKeys.allCases.filter { $0 != .sequence }

    /// A reading whose `uuid` is already stored is skipped, not an error (not `INSERT OR IGNORE`,
    /// which would also skip rows breaking NOT NULL or CHECK): the changes count says whether
    /// the row was stored.
    static let insertSQL = """
        INSERT INTO measurement (\(insertedColumns.map(\.rawValue).joined(separator: ", ")))
        VALUES (\(insertedColumns.map { _ in "?" }.joined(separator: ", ")))
        ON CONFLICT(uuid) DO NOTHING
        """

    /// What ingest binds to ``insertSQL``: the values of ``insertedColumns``, in order. Written
    /// out rather than encoded through `Codable`, which is a measurable share of ingest time.
    var insertArguments: StatementArguments {
        [
            uuid, batchID, scannerID, revision, mode, roomID, locationID, kind, timeMs, rssi, scan, address,
            ssid, frequencyMHz, beaconUUID, major, minor, txPower,
        ]
    }

    /// Decodes by column name without `Codable`'s keyed containers: the feeds and the radio map
    /// read every row this way, and the decoder was most of their time.
    init(row: Row) throws {
        typealias Key = CodingKeys
        sequence = row[Key.sequence.rawValue]
        uuid = row[Key.uuid.rawValue]
        batchID = row[Key.batchID.rawValue]
        scannerID = row[Key.scannerID.rawValue]
        revision = row[Key.revision.rawValue]
        mode = row[Key.mode.rawValue]
        roomID = row[Key.roomID.rawValue]
        locationID = row[Key.locationID.rawValue]
        kind = row[Key.kind.rawValue]
        timeMs = row[Key.timeMs.rawValue]
        rssi = row[Key.rssi.rawValue]
        scan = row[Key.scan.rawValue]
        address = row[Key.address.rawValue]
        ssid = row[Key.ssid.rawValue]
        frequencyMHz = row[Key.frequencyMHz.rawValue]
        beaconUUID = row[Key.beaconUUID.rawValue]
        major = row[Key.major.rawValue]
        minor = row[Key.minor.rawValue]
        txPower = row[Key.txPower.rawValue]
    }

    /// The row of `measurement` taken under `revision` and stored in batch row `batchID`.
    init(_ measurement: ScanContract.Measurement, batchID: Int64, revision: ScanSwitch) {
        uuid = measurement.id
        self.batchID = batchID
        scannerID = revision.scannerID.rawValue
        self.revision = revision.revision
        mode = revision.mode.rawValue
        roomID = revision.roomID
        locationID = revision.locationID
        timeMs = measurement.time.milliseconds
        rssi = measurement.rssi
        scan = measurement.scan
        switch measurement.observation {
        case .wifi(let wifi):
            kind = RadioKind.wifi.rawValue
            address = Int64(wifi.bssid.rawValue)
            ssid = wifi.ssid
            frequencyMHz = wifi.frequencyMHz
        case .ble(let ble):
            kind = RadioKind.ble.rawValue
            address = Int64(ble.address.rawValue)
            beaconUUID = ble.beacon.uuid
            major = Int(ble.beacon.major)
            minor = Int(ble.beacon.minor)
            txPower = ble.txPower
        }
    }

    /// The reading as a scanner sent it.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored value is not one switchd writes.
    func measurement() throws -> ScanContract.Measurement {
        let macAddress = MACAddress(rawValue: UInt64(bitPattern: address))
        let observation: Observation
        switch try radioKind() {
        case .wifi:
            guard let ssid, let frequencyMHz else {
                throw StoreError.corruptRow("measurement \(sequence ?? 0) is a Wi-Fi reading without SSID or frequency")
            }
            observation = .wifi(WiFiObservation(bssid: macAddress, ssid: ssid, frequencyMHz: frequencyMHz))
        case .ble:
            observation = .ble(BLEObservation(address: macAddress, beacon: try beaconID(), txPower: try require(txPower)))
        }
        return ScanContract.Measurement(id: uuid, time: Date(milliseconds: timeMs), rssi: rssi, scan: scan, observation: observation)
    }

    /// The reading with where and under which revision it was stored; `batchUUID` is the ID of
    /// batch row ``batchID``.
    func storedMeasurement(batchUUID: UUID) throws -> StoredMeasurement {
        guard let scanMode = ScanMode(rawValue: mode) else {
            throw StoreError.corruptRow("measurement \(sequence ?? 0) holds mode \"\(mode)\"")
        }
        return StoredMeasurement(
            sequence: sequence ?? 0, scannerID: try storedScannerID(scannerID), batchID: batchUUID, switchRevision: revision,
            mode: scanMode, roomID: roomID, locationID: locationID, measurement: try measurement()
        )
    }

    /// A survey reading as the radio map needs it; nil for a row that is not one (a locate
    /// reading, or one whose location was cleared).
    func surveyReading() throws -> SurveyReading? {
        guard mode == ScanMode.survey.rawValue, let locationID else { return nil }
        let emitter: Emitter
        switch try radioKind() {
        case .wifi: emitter = .accessPoint(MACAddress(rawValue: UInt64(bitPattern: address)))
        case .ble: emitter = .beacon(try beaconID())
        }
        let key = SurveyScanKey(scannerID: scannerID, revision: Int64(revision), scan: Int64(scan))
        return SurveyReading(locationID: locationID, scan: key, emitter: emitter, rssi: rssi)
    }

    private func radioKind() throws -> RadioKind {
        guard let radioKind = RadioKind(rawValue: kind) else {
            throw StoreError.corruptRow("measurement \(sequence ?? 0) holds kind \"\(kind)\"")
        }
        return radioKind
    }

    private func beaconID() throws -> BeaconID {
        guard let beaconUUID, let major = major.flatMap(UInt16.init(exactly:)), let minor = minor.flatMap(UInt16.init(exactly:)) else {
            throw incompleteBeacon
        }
        return BeaconID(uuid: beaconUUID, major: major, minor: minor)
    }

    private func require(_ value: Int?) throws -> Int {
        guard let value else { throw incompleteBeacon }
        return value
    }

    private var incompleteBeacon: StoreError {
        .corruptRow("measurement \(sequence ?? 0) is a BLE reading without a complete beacon identity")
    }
}
