import Foundation
import Positioning
import ScanContract

/// The walls an SVG floor plan draws: every `line`, `polyline`, `polygon` and `rect` that is,
/// or sits inside, an element whose `id` or `class` holds the word "wall" (any case, e.g.
/// `<g id="walls">` or `class="wall outer"`). Coordinates are the SVG's user units, taken as the
/// plan's pixels; `transform` attributes are not applied. Each becomes segments in plan metres
/// through the floor's ``PlanScale``.
enum SVGWalls {
    /// The wall segments, in plan metres.
    ///
    /// - Throws: why ``SVGParser`` would not read `data` (a stored plan may come from a version
    ///   of switchd that checked less).
    static func segments(in data: Data, scale: PlanScale, budget: SVGBudget) throws(SVGProblem) -> [WallSegment] {
        let reader = WallReader()
        try SVGParser.parse(data, budget: budget, handler: reader)
        func metres(_ x: Double, _ y: Double) -> (Double, Double) {
            ((x - scale.originX) * scale.metresPerPixel, (y - scale.originY) * scale.metresPerPixel)
        }
        return reader.pixelSegments.map { segment in
            let (x1, y1) = metres(segment.0, segment.1), (x2, y2) = metres(segment.2, segment.3)
            return WallSegment(x1: x1, y1: y1, x2: x2, y2: y2)
        }
    }

    /// Whether an element's `id` or `class` names it a wall.
    static func namesWall(_ attributes: [String: String]) -> Bool {
        [attributes["id"], attributes["class"]].contains { $0?.range(of: "wall", options: .caseInsensitive) != nil }
    }

    /// The numbers of a `points` attribute (`x1,y1 x2,y2 …`), paired; a trailing odd number is dropped.
    static func points(_ text: String) -> [(Double, Double)] {
        let numbers = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).compactMap { Double($0) }
        return stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
    }
}

/// Collects the segments of wall elements while the parse walks the document.
private final class WallReader: SVGElementHandler {
    var pixelSegments: [(Double, Double, Double, Double)] = []
    /// Per open element: whether it or an ancestor names a wall.
    private var wallDepths: [Bool] = []

    func start(_ element: SVGElement) {
        let attributes = element.attributes
        let isWall = (wallDepths.last ?? false) || SVGWalls.namesWall(attributes)
        wallDepths.append(isWall)
        guard isWall else { return }
        func number(_ name: String) -> Double { Double(attributes[name] ?? "") ?? 0 }
        switch element.name {
        case "line":
            pixelSegments.append((number("x1"), number("y1"), number("x2"), number("y2")))
        case "polyline", "polygon":
            var corners = SVGWalls.points(attributes["points"] ?? "")
            if element.name == "polygon", let first = corners.first { corners.append(first) }
            for (a, b) in zip(corners, corners.dropFirst()) { pixelSegments.append((a.0, a.1, b.0, b.1)) }
        case "rect":
            let x = number("x"), y = number("y"), width = number("width"), height = number("height")
            let corners = [(x, y), (x + width, y), (x + width, y + height), (x, y + height), (x, y)]
            for (a, b) in zip(corners, corners.dropFirst()) { pixelSegments.append((a.0, a.1, b.0, b.1)) }
        default:
            break
        }
    }

    func end() {
        _ = wallDepths.popLast()
    }
}
