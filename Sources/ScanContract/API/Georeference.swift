/// One control point of a floor's geo-reference: a spot on the plan (metres, as locations are
/// given) and its latitude and longitude (WGS 84 degrees).
public struct ControlPoint: Codable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var latitude: Double
    public var longitude: Double

    public init(x: Double, y: Double, latitude: Double, longitude: Double) {
        self.x = x
        self.y = y
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// What `PUT /v1/floors/{id}/georeference` takes: three or more control points.
public struct NewGeoreference: Codable, Hashable, Sendable {
    public var controlPoints: [ControlPoint]

    public init(controlPoints: [ControlPoint]) {
        self.controlPoints = controlPoints
    }

    public static let pointCountRange = 3...64

    /// Checks the count and each point's range; whether the points span an area is the fit's business.
    public func validate() throws(ValidationError) {
        guard Self.pointCountRange.contains(controlPoints.count) else {
            throw ValidationError(
                field: "controlPoints",
                reason: "must hold \(Self.pointCountRange.lowerBound) to \(Self.pointCountRange.upperBound) points, got \(controlPoints.count)"
            )
        }
        for (index, point) in controlPoints.enumerated() {
            for (field, value) in [("x", point.x), ("y", point.y)] where !(value.isFinite && abs(value) <= NewLocation.coordinateLimit) {
                throw ValidationError(
                    field: "controlPoints[\(index)].\(field)",
                    reason: "must be a finite number of metres within ±\(Int(NewLocation.coordinateLimit)), got \(value)"
                )
            }
            guard point.latitude.isFinite, (-90...90).contains(point.latitude) else {
                throw ValidationError(field: "controlPoints[\(index)].latitude", reason: "must be between -90 and 90 degrees, got \(point.latitude)")
            }
            guard point.longitude.isFinite, (-180...180).contains(point.longitude) else {
                throw ValidationError(field: "controlPoints[\(index)].longitude", reason: "must be between -180 and 180 degrees, got \(point.longitude)")
            }
        }
    }
}

/// A control point as fitted: how far (metres) the fitted map puts it from where it was given.
public struct FittedControlPoint: Codable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var latitude: Double
    public var longitude: Double
    public var residualMetres: Double

    public init(_ point: ControlPoint, residualMetres: Double) {
        x = point.x
        y = point.y
        latitude = point.latitude
        longitude = point.longitude
        self.residualMetres = residualMetres
    }
}

/// The affine map from plan metres to metres east and north of a reference point:
/// `east = a·x + b·y + c`, `north = d·x + e·y + f`; the reference is where east = north = 0.
public struct PlanToEarthTransform: Codable, Hashable, Sendable {
    public var referenceLatitude: Double
    public var referenceLongitude: Double
    public var a, b, c, d, e, f: Double

    public init(referenceLatitude: Double, referenceLongitude: Double, a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        self.referenceLatitude = referenceLatitude
        self.referenceLongitude = referenceLongitude
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }
}

/// A floor's geo-reference: its control points with their residuals, and the fitted map.
public struct Georeference: Codable, Hashable, Sendable {
    public var floorID: Int64
    public var controlPoints: [FittedControlPoint]
    public var rmsResidualMetres: Double
    public var maxResidualMetres: Double
    public var transform: PlanToEarthTransform

    public init(
        floorID: Int64, controlPoints: [FittedControlPoint], rmsResidualMetres: Double, maxResidualMetres: Double,
        transform: PlanToEarthTransform
    ) {
        self.floorID = floorID
        self.controlPoints = controlPoints
        self.rmsResidualMetres = rmsResidualMetres
        self.maxResidualMetres = maxResidualMetres
        self.transform = transform
    }
}
