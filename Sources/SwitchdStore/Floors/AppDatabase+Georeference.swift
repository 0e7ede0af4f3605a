import Positioning
import ScanContract

extension AppDatabase {
    /// Replaces the floor's control points with `new`'s and returns the fit.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor; ``StoreError/invalidField(_:)``
    ///   naming `controlPoints` for too few or too many points, a point out of range, or points
    ///   that lie on one line (on the plan or on Earth). A refused request leaves the stored points.
    package func setGeoreference(ofFloor floorID: Int64, _ new: NewGeoreference) async throws -> Georeference {
        try validate(new.validate)
        let fit: GeoAffineFit
        do {
            fit = try GeoAffineFit(new.controlPoints)
        } catch {
            throw StoreError.invalidField(ValidationError(field: "controlPoints", reason: error.reason))
        }
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard try FloorRecord.exists(sql, id: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
            try GeoreferencePointRecord.delete(sql, ofFloor: floorID)
            for (ordinal, point) in new.controlPoints.enumerated() {
                try GeoreferencePointRecord.insert(sql, point, ordinal: ordinal, ofFloor: floorID)
            }
            return Self.georeference(floorID: floorID, points: new.controlPoints, fit: fit)
        }
    }

    /// The floor's geo-reference; nil when the floor is not geo-referenced.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    package func georeference(ofFloor floorID: Int64) async throws -> Georeference? {
        try await readStatements { sql in
            guard try FloorRecord.exists(sql, id: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
            guard let points = try GeoreferencePointRecord.controlPointsByFloor(sql)[floorID],
                  let fit = try? GeoAffineFit(points)
            else { return nil }
            return Self.georeference(floorID: floorID, points: points, fit: fit)
        }
    }

    /// Forgets the floor's geo-reference. Idempotent: a floor without one stays without one.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    package func deleteGeoreference(ofFloor floorID: Int64) async throws {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard try FloorRecord.exists(sql, id: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
            _ = try GeoreferencePointRecord.delete(sql, ofFloor: floorID)
        }
    }

    private static func georeference(floorID: Int64, points: [ControlPoint], fit: GeoAffineFit) -> Georeference {
        Georeference(
            floorID: floorID,
            controlPoints: zip(points, fit.residuals).map { FittedControlPoint($0, residualMetres: $1) },
            rmsResidualMetres: fit.rmsResidual,
            maxResidualMetres: fit.residuals.max() ?? 0,
            transform: PlanToEarthTransform(
                referenceLatitude: fit.plane.referenceLatitude, referenceLongitude: fit.plane.referenceLongitude,
                a: fit.a, b: fit.b, c: fit.c, d: fit.d, e: fit.e, f: fit.f
            )
        )
    }
}

extension AppDatabase {
    /// Where a plan point of the floor lies on Earth; nil when the floor is not geo-referenced.
    package func coordinates(floorID: Int64, x: Double, y: Double) async throws -> (latitude: Double, longitude: Double)? {
        try await readStatements { sql in try GeoFrames.load(sql).coordinates(floorID: floorID, x: x, y: y) }
    }
}
