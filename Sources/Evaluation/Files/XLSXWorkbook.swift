import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The sheets of an .xlsx workbook as grids of cells: `xl/workbook.xml` names the sheets,
/// `xl/_rels/workbook.xml.rels` says which part holds each, `xl/sharedStrings.xml` holds the
/// text cells (ECMA-376 part 1, §18.2 and §18.3).
public struct XLSXWorkbook {
    public typealias FormatError = ZipArchive.FormatError

    private let archive: ZipArchive
    /// Sheet name → member path inside the archive.
    let sheetPaths: [String: String]
    private let sharedStrings: [String]

    /// Throws when the bytes are not a zip archive or the workbook parts are missing or malformed.
    public init(_ bytes: [UInt8]) throws(FormatError) {
        archive = try ZipArchive(bytes)
        let workbook = try Self.elements(try archive.contents(of: "xl/workbook.xml"), named: ["sheet"], part: "xl/workbook.xml")
        let relations = try Self.elements(try archive.contents(of: "xl/_rels/workbook.xml.rels"), named: ["Relationship"], part: "workbook relations")
        var targets: [String: String] = [:]
        for relation in relations {
            guard let id = relation.attributes["Id"], let target = relation.attributes["Target"] else { continue }
            targets[id] = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
        }
        var paths: [String: String] = [:]
        for sheet in workbook {
            guard let name = sheet.attributes["name"], let id = sheet.attributes["r:id"], let path = targets[id] else { continue }
            paths[name] = path
        }
        sheetPaths = paths
        if archive.contains("xl/sharedStrings.xml") {
            let strings = try Self.elements(try archive.contents(of: "xl/sharedStrings.xml"), named: ["si", "t"], part: "shared strings")
            // A string item (si) may hold several runs (t); their texts are joined.
            var items: [String] = []
            for element in strings {
                if element.name == "si" { items.append("") } else if !items.isEmpty { items[items.count - 1] += element.text }
            }
            sharedStrings = items
        } else {
            sharedStrings = []
        }
    }

    /// The named sheet, row by row (rows and columns placed by their references, gaps empty).
    /// Throws when there is no such sheet or its XML or a cell reference is malformed.
    public func sheet(_ name: String) throws(FormatError) -> [[SpreadsheetCell]] {
        guard let path = sheetPaths[name] else {
            throw FormatError(description: "no sheet \"\(name)\"; the workbook has \(sheetPaths.keys.sorted().joined(separator: ", "))")
        }
        let cells = try Self.elements(try archive.contents(of: path), named: ["c", "v", "t"], part: path)
        var grid: [[SpreadsheetCell]] = []
        var reference: (row: Int, column: Int)?
        var type = ""
        for element in cells {
            switch element.name {
            case "c":
                guard let text = element.attributes["r"], let parsed = Self.cellReference(text) else {
                    throw FormatError(description: "\(path): cell without a valid reference (r=\"\(element.attributes["r"] ?? "")\")")
                }
                reference = parsed
                type = element.attributes["t"] ?? "n"
            default:
                guard let (row, column) = reference else { continue }
                let value: SpreadsheetCell
                switch type {
                case "s":
                    guard let index = Int(element.text), sharedStrings.indices.contains(index) else {
                        throw FormatError(description: "\(path): shared string \(element.text) does not exist")
                    }
                    value = .text(sharedStrings[index])
                case "str", "inlineStr":
                    value = .text(element.text)
                default:
                    guard let number = Double(element.text) else {
                        throw FormatError(description: "\(path): cell value \"\(element.text)\" is not a number")
                    }
                    value = .number(number)
                }
                while grid.count <= row { grid.append([]) }
                while grid[row].count <= column { grid[row].append(.empty) }
                grid[row][column] = value
                reference = nil
            }
        }
        return grid
    }

    /// "B12" → (row 11, column 1), zero-based.
    static func cellReference(_ text: String) -> (row: Int, column: Int)? {
        var column = 0
        var digits = Substring(text)
        for character in text {
            guard let ascii = character.asciiValue, (65...90).contains(ascii) else { break }
            column = column * 26 + Int(ascii - 64)
            digits = digits.dropFirst()
        }
        guard column > 0, let row = Int(digits), row > 0 else { return nil }
        return (row - 1, column - 1)
    }

    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
    }

    /// The elements of `names` in document order, with their attributes and direct text.
    private static func elements(_ bytes: [UInt8], named names: Set<String>, part: String) throws(FormatError) -> [Element] {
        let collector = ElementCollector(names: names)
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = collector
        // swift-corelibs' parser may return true yet record an error (an unclosed element).
        guard parser.parse(), parser.parserError == nil else {
            let reason = parser.parserError.map { "\($0)" } ?? "unknown error"
            throw FormatError(description: "\(part): malformed XML (line \(parser.lineNumber)): \(reason)")
        }
        return collector.elements
    }
}

/// Collects the elements of interest as XMLParser walks a part.
private final class ElementCollector: NSObject, XMLParserDelegate {
    let names: Set<String>
    var elements: [XLSXWorkbook.Element] = []
    private var open: Int?

    init(names: Set<String>) {
        self.names = names
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        guard names.contains(name) else { return }
        elements.append(XLSXWorkbook.Element(name: name, attributes: attributes, text: ""))
        open = elements.count - 1
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard let open else { return }
        elements[open].text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if names.contains(name) { open = nil }
    }
}
