import Foundation
import GRDB
import ScanContract

/// Which stored positions a listing or stream wants; nil fields do not filter.
package struct PositionFilter: Sendable {
    package var scannerID: ScannerID?
    /// Positions computed at or after this time.
    package var since: Date?
    /// Positions computed before this time.
    package var until: Date?

    package init(scannerID: ScannerID? = nil, since: Date? = nil, until: Date? = nil) {
        self.scannerID = scannerID
        self.since = since
        self.until = until
    }
}

extension AppDatabase {
    /// Stores a position a scanner computed.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner; ``StoreError/invalidField(_:)``
    ///   naming `floor` (unknown), `building` (not the floor's), `roomID` or `nearestLocationID`
    ///   (unknown, or not on that floor), or the field ``NewPosition/validate()`` names.
    package func createPosition(_ new: NewPosition) async throws -> Position {
        try validate(new.validate)
        let record = try PositionRecord(new)
        return try await write { db in
            guard try ScannerRecord.exists(db, key: new.scannerID.rawValue) else { throw StoreError.notFound("no scanner \(new.scannerID)") }
            guard let floor = try FloorRecord.fetchOne(db, key: new.floor) else {
                throw StoreError.invalidField(ValidationError(field: "floor", reason: "no floor \(new.floor)"))
            }
            guard floor.building == new.building else {
                throw StoreError.invalidField(ValidationError(
                    field: "building", reason: "floor \(new.floor) is in building \"\(floor.building)\", not \"\(new.building.prefix(64))\""
                ))
            }
            try Self.checkOnFloor(new.roomID, field: "roomID", kind: "room", floor: new.floor, in: db) { id in
                try RoomRecord.fetchOne(db, key: id)?.floorID
            }
            try Self.checkOnFloor(new.nearestLocationID, field: "nearestLocationID", kind: "location", floor: new.floor, in: db) { id in
                try LocationRecord.fetchLocation(SQLiteTransaction(db: db), id: id)?.floorID
            }
            var inserted = record
            try inserted.insert(db)
            return try GeoFrames.load(SQLiteTransaction(db: db)).place(inserted.position())
        }
    }

    /// Up to `limit` positions matching `filter` with an ID above `id`, ascending, read in one
    /// snapshot with the highest ID given out.
    package func positions(matching filter: PositionFilter, after id: Int64, limit: Int) async throws -> FeedSlice<Position> {
        try await read { db in
            typealias Columns = PositionRecord.Columns
            var request = PositionRecord.filter(Columns.id > id)
            if let scannerID = filter.scannerID { request = request.filter(Columns.scannerID == scannerID.rawValue) }
            if let since = filter.since { request = request.filter(Columns.timeMs >= since.milliseconds) }
            if let until = filter.until { request = request.filter(Columns.timeMs < until.milliseconds) }
            let frames = try GeoFrames.load(SQLiteTransaction(db: db))
            let items = try request.order(Columns.id).limit(limit).fetchAll(db).map { try frames.place($0.position()) }
            return FeedSlice(items: items, endOfFeed: try AutoincrementEnd.of(PositionRecord.databaseTableName, in: db))
        }
    }

    /// The highest position ID ever given out (0 before the first); deletes do not lower it.
    package func endOfPositionFeed() async throws -> Int64 {
        try await read { db in try AutoincrementEnd.of(PositionRecord.databaseTableName, in: db) }
    }

    /// Each scanner's latest position by the time it was computed (of two at one time, the one
    /// stored last), ordered by scanner ID; only `scannerID`'s when given.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `scannerID` names no scanner or one with no
    ///   position yet.
    package func latestPositions(of scannerID: ScannerID?) async throws -> [Position] {
        try await read { db in
            let frames = try GeoFrames.load(SQLiteTransaction(db: db))
            func latest(of scanner: String) throws -> Position? {
                let record = try PositionRecord
                    .filter(PositionRecord.Columns.scannerID == scanner)
                    .order(PositionRecord.Columns.timeMs.desc, PositionRecord.Columns.id.desc)
                    .fetchOne(db)
                return try record.map { frames.place(try $0.position()) }
            }
            guard let scannerID else {
                return try String.fetchAll(db, ScannerRecord.select(ScannerRecord.Columns.id).order(ScannerRecord.Columns.id))
                    .compactMap(latest(of:))
            }
            guard try ScannerRecord.exists(db, key: scannerID.rawValue) else { throw StoreError.notFound("no scanner \(scannerID)") }
            guard let position = try latest(of: scannerID.rawValue) else {
                throw StoreError.notFound("scanner \(scannerID) has posted no position yet")
            }
            return [position]
        }
    }

    /// `id` is nil, or names a row of that kind whose floor (what `floorOf` reads) is `floor`.
    private static func checkOnFloor(
        _ id: Int64?, field: String, kind: String, floor: Int64, in db: Database, floorOf: (Int64) throws -> Int64?
    ) throws {
        guard let id else { return }
        guard let floorOfID = try floorOf(id) else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "no \(kind) \(id)"))
        }
        guard floorOfID == floor else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "\(kind) \(id) is on floor \(floorOfID), not floor \(floor)"))
        }
    }
}
