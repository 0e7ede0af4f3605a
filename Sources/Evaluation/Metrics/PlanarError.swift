/// Straight-line distance between an estimate and the truth in the plane, in the map's units.
public func planarError(x: Double, y: Double, trueX: Double, trueY: Double) -> Double {
    let dx = x - trueX, dy = y - trueY
    return (dx * dx + dy * dy).squareRoot()
}
