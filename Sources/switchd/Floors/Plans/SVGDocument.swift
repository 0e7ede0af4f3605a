import Foundation

/// Whether bytes that look like an SVG (``Scan/PlanImageFormat/detect(_:)``) are one switchd
/// will keep: a well-formed XML document, read whole by ``SVGParser`` within its budget, whose
/// root element is `svg` in the SVG namespace. An HTML page (root `html`, or not well-formed XML)
/// is not; neither is a document with a DTD's declarations, in an encoding other than UTF-8,
/// UTF-16, US-ASCII or ISO-8859-1, or over the budget.
enum SVGDocument {
    static let namespace = "http://www.w3.org/2000/svg"

    /// - Throws: why `data` is not an SVG plan to keep.
    static func check(_ data: Data, budget: SVGBudget) throws(SVGProblem) {
        let reader = RootElementReader()
        try SVGParser.parse(data, budget: budget, handler: reader)
        guard let root = reader.root else {
            throw .notSVG("an SVG plan must have an svg root element")
        }
        guard root.name == "svg", root.namespace == namespace else {
            throw .notSVG("an SVG plan's root element must be svg in the namespace \(namespace), not \(root.name.prefix(64))")
        }
    }
}

/// Notes the root element.
private final class RootElementReader: SVGElementHandler {
    var root: SVGElement?

    func start(_ element: SVGElement) {
        if root == nil { root = element }
    }

    func end() {}
}
