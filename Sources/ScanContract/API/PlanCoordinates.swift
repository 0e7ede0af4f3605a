/// Checks a point on a floor plan: `x` and `y` finite metres within ±``NewLocation/coordinateLimit``.
func validatePlanCoordinates(x: Double, y: Double) throws(ValidationError) {
    for (field, value) in [("x", x), ("y", y)] where !(value.isFinite && abs(value) <= NewLocation.coordinateLimit) {
        throw ValidationError(field: field, reason: "must be a finite number of metres within ±\(Int(NewLocation.coordinateLimit)), got \(value)")
    }
}
