import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Whether bytes that look like an SVG (``Scan/PlanImageFormat/detect(_:)``) are one: a
/// well-formed XML document, parsed whole, whose root element is `svg` in the SVG namespace.
/// An HTML page (root `html`, or not well-formed XML) is not. Entity declarations are refused
/// outright, so no document can make the parser expand or fetch anything.
enum SVGDocument {
    static let namespace = "http://www.w3.org/2000/svg"

    /// Why `data` is not an SVG document, or nil when it is.
    static func problem(in data: Data) -> String? {
        // FoundationXML on Linux reports no entity declarations to its delegate: look for them
        // in the text (in a comment or CDATA section they are refused too).
        if data.range(of: Data("<!ENTITY".utf8)) != nil {
            return "an SVG plan may not declare entities"
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let reader = RootElementReader()
        parser.delegate = reader
        // On Linux `parse()` can answer true after an error: the error is what counts.
        let parsed = parser.parse()
        if reader.declaresEntities {
            return "an SVG plan may not declare entities"
        }
        if let error = parser.parserError ?? reader.error {
            let code = (error as NSError).code
            return "an SVG plan must be well-formed XML; it is not (XML parser error \(code) at line \(parser.lineNumber), column \(parser.columnNumber))"
        }
        guard parsed else {
            return "an SVG plan must be well-formed XML; the parser stopped at line \(parser.lineNumber)"
        }
        guard let root = reader.root else {
            return "an SVG plan must have an svg root element"
        }
        guard root.name == "svg", root.namespace == namespace else {
            return "an SVG plan's root element must be svg in the namespace \(namespace), not \(root.name.prefix(64))"
        }
        return nil
    }
}

/// Notes the root element, the first error and any entity declaration.
private final class RootElementReader: NSObject, XMLParserDelegate {
    var root: (name: String, namespace: String?)?
    var declaresEntities = false
    var error: (any Error)?

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if error == nil { error = parseError }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = (elementName, namespaceURI) }
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        declaresEntities = true
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        declaresEntities = true
        parser.abortParsing()
    }
}
