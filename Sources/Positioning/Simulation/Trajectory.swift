#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Where a simulated scanner is over time: standing still, or walking a path of waypoints back
/// and forth at a constant speed.
public enum Trajectory: Hashable, Sendable {
    case standing(PlanPoint)
    case walking([PlanPoint], metresPerSecond: Double)

    /// The position `elapsed` seconds after the start.
    public func position(after elapsed: Double) -> PlanPoint {
        switch self {
        case .standing(let point):
            return point
        case .walking(let points, let speed):
            guard points.count > 1, speed > 0 else { return points.first ?? PlanPoint(x: 0, y: 0) }
            let legs = zip(points, points.dropFirst()).map { ($0, $1, $0.distance(to: $1)) }
            let length = legs.reduce(0) { $0 + $1.2 }
            guard length > 0 else { return points[0] }
            // Walk to the end and back: a period of twice the length.
            var travelled = (elapsed * speed).truncatingRemainder(dividingBy: 2 * length)
            if travelled > length { travelled = 2 * length - travelled }
            for (from, to, legLength) in legs {
                if travelled <= legLength {
                    let f = legLength == 0 ? 0 : travelled / legLength
                    return PlanPoint(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
                }
                travelled -= legLength
            }
            return points[points.count - 1]
        }
    }

    /// Reads `x,y` (standing) or `x,y;x,y;…[@speed]` (walking, default 1.2 m/s).
    public init(parsing text: String) throws(FieldError) {
        let parts = text.split(separator: "@", maxSplits: 1)
        let pointTexts = parts.first.map { $0.split(separator: ";") } ?? []
        var points: [PlanPoint] = []
        for pointText in pointTexts {
            let xy = pointText.split(separator: ",")
            guard xy.count == 2, let x = Double(Self.trimmed(xy[0])),
                  let y = Double(Self.trimmed(xy[1])), x.isFinite, y.isFinite else {
                throw FieldError("must be x,y or x,y;x,y;…[@metresPerSecond], got \"\(text)\"")
            }
            points.append(PlanPoint(x: x, y: y))
        }
        guard !points.isEmpty else { throw FieldError("needs at least one x,y point") }
        if points.count == 1 {
            self = .standing(points[0])
            return
        }
        var speed = 1.2
        if parts.count == 2 {
            guard let given = Double(parts[1]), given > 0, given.isFinite else {
                throw FieldError("walking speed after @ must be a positive number, got \"\(parts[1])\"")
            }
            speed = given
        }
        self = .walking(points, metresPerSecond: speed)
    }

    /// A field of the trajectory text without the spaces around it.
    private static func trimmed(_ field: Substring) -> Substring {
        var field = field
        while field.first?.isWhitespace == true { field.removeFirst() }
        while field.last?.isWhitespace == true { field.removeLast() }
        return field
    }
}
