import CLibXML2
import Foundation

/// One element as ``SVGParser`` meets it: its local name, its namespace, and its attributes that
/// have no prefix (`id`, `class`, `x1`; not `xlink:href`).
struct SVGElement {
    var name: String
    var namespace: String?
    var attributes: [String: String]
}

/// Told each element of a plan, in document order, as ``SVGParser`` reads it.
protocol SVGElementHandler: AnyObject {
    func start(_ element: SVGElement)
    func end()
}

/// Reads an SVG plan with libxml2's SAX2 parser on the calling thread, with every way a document
/// can make the parser do more than read it once turned off, whatever its encoding:
///
/// - no entity is ever substituted (`XML_PARSE_NOENT` off), no DTD is loaded (`XML_PARSE_DTDLOAD`
///   off) and nothing is fetched (`XML_PARSE_NONET`); no default SAX2 callback is installed, so
///   libxml2 builds no tree and resolves nothing;
/// - the parser's own declaration callbacks refuse the document at the first entity, element,
///   attribute-list or notation declaration (a DTD's internal subset), and at any reference to an
///   entity other than XML's five: they see the declarations after decoding, so `<+ACE-ENTITY` in
///   UTF-7 is met as `<!ENTITY` is. A bare `<!DOCTYPE svg PUBLIC …>` (as Illustrator writes) is
///   taken: it declares nothing and is never loaded;
/// - the encoding the parser decodes with must be UTF-8, UTF-16, US-ASCII or ISO-8859-1: the
///   ones libxml2 decodes itself and every browser reads. Any other goes through iconv, reads
///   differently in the browser that draws the plan (none reads UTF-7), and is how markup is
///   hidden from whatever looks at the bytes;
/// - the ``SVGBudget``: size before the parse, elements and time during it.
///
/// The parse stops at the first problem; nothing of the document is kept.
enum SVGParser {
    /// Encodings read (the names of libxml2's built-in decoders; UTF-8 has none).
    static let encodings: Set<String> = ["UTF-8", "UTF-16", "UTF-16LE", "UTF-16BE", "US-ASCII", "ASCII", "ISO-8859-1"]
    /// How much of a libxml2 error message a problem repeats (it may quote the document).
    static let quotedCharacters = 160

    /// Reads `data`, telling `handler` each element's start and end.
    ///
    /// - Throws: the first ``SVGProblem`` met; `handler` may have been told part of the document.
    static func parse(_ data: Data, budget: SVGBudget, handler: any SVGElementHandler) throws(SVGProblem) {
        guard data.count <= budget.maxBytes, data.count < Int(Int32.max) else {
            throw .overBudget("an SVG plan may be at most \(budget.maxBytes) bytes to be read; this one is \(data.count)")
        }
        _ = initialized
        let state = ParseState(handler: handler, budget: budget)
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startDocument = { user in ParseState.of(user).checkEncoding() }
        sax.startElementNs = { user, name, _, namespace, _, _, attributeCount, _, attributes in
            ParseState.of(user).start(name: name, namespace: namespace, attributeCount: Int(attributeCount), attributes: attributes)
        }
        sax.endElementNs = { user, _, _, _ in ParseState.of(user).end() }
        sax.characters = { user, _, _ in ParseState.of(user).checkTime() }
        sax.cdataBlock = { user, _, _ in ParseState.of(user).checkTime() }
        sax.entityDecl = { user, name, _, _, _, _ in ParseState.of(user).refuseDeclaration("an entity", name) }
        sax.unparsedEntityDecl = { user, name, _, _, _ in ParseState.of(user).refuseDeclaration("an entity", name) }
        sax.elementDecl = { user, name, _, _ in ParseState.of(user).refuseDeclaration("an element", name) }
        sax.attributeDecl = { user, element, _, _, _, _, tree in
            // The callback owns the enumeration libxml2 hands it.
            xmlFreeEnumeration(tree)
            ParseState.of(user).refuseDeclaration("an attribute list", element)
        }
        sax.notationDecl = { user, name, _, _ in ParseState.of(user).refuseDeclaration("a notation", name) }
        // Only for an entity nobody declared (the five of XML are characters): no SVG needs one.
        sax.reference = { user, name in
            ParseState.of(user).refuse(.dtd("an SVG plan may not refer to entities other than XML's five; this one refers to &\(ParseState.text(name));"))
        }
        // getEntity and getParameterEntity stay nil: no entity is ever found, so none is expanded.
        sax.serror = { user, error in ParseState.of(user).report(error?.pointee) }

        try withExtendedLifetime(state) { () throws(SVGProblem) in
            let parsed: Bool = data.withUnsafeBytes { bytes in
                guard let context = xmlCreateMemoryParserCtxt(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count)) else {
                    return false
                }
                defer { xmlFreeParserCtxt(context) }
                context.pointee.sax.pointee = sax
                context.pointee.userData = Unmanaged.passUnretained(state).toOpaque()
                state.context = context
                _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
                _ = xmlParseDocument(context)
                state.context = nil
                return context.pointee.wellFormed == 1
            }
            if let problem = state.problem { throw problem }
            guard parsed else { throw .notSVG("an SVG plan must be well-formed XML; it is not") }
        }
    }

    /// libxml2's global state, set up once before the first parse (xmlInitParser is not reentrant).
    private static let initialized: Void = xmlInitParser()
}

/// One parse's progress, reached from libxml2's callbacks through the context's `userData`.
private final class ParseState {
    let handler: any SVGElementHandler
    let budget: SVGBudget
    let deadline: ContinuousClock.Instant
    var context: xmlParserCtxtPtr?
    var elements = 0
    /// The first problem met; the parse is stopped there.
    var problem: SVGProblem?

    init(handler: any SVGElementHandler, budget: SVGBudget) {
        self.handler = handler
        self.budget = budget
        deadline = ContinuousClock.now + budget.maxDuration
    }

    static func of(_ user: UnsafeMutableRawPointer?) -> ParseState {
        Unmanaged<ParseState>.fromOpaque(user!).takeUnretainedValue()
    }

    static func text(_ characters: UnsafePointer<xmlChar>?) -> String {
        characters.map { String(cString: $0).prefix(APIError.echoedCharacters).description } ?? ""
    }

    func refuse(_ problem: SVGProblem) {
        if self.problem == nil { self.problem = problem }
        if let context { xmlStopParser(context) }
    }

    func refuseDeclaration(_ kind: String, _ name: UnsafePointer<xmlChar>?) {
        refuse(.dtd("an SVG plan may not declare entities, elements, attribute lists or notations (a DTD); this one declares \(kind) \(Self.text(name))"))
    }

    /// At the start of the document, once the parser has read the XML declaration and chosen how
    /// to decode the rest.
    func checkEncoding() {
        guard let name = context?.pointee.input?.pointee.buf?.pointee.encoder?.pointee.name else { return }
        let encoding = String(cString: name)
        guard !SVGParser.encodings.contains(encoding.uppercased()) else { return }
        refuse(.encoding("an SVG plan must be encoded in UTF-8, UTF-16, US-ASCII or ISO-8859-1; this one is in \(encoding.prefix(APIError.echoedCharacters))"))
    }

    func checkTime() {
        guard ContinuousClock.now < deadline else {
            refuse(.overBudget("an SVG plan must be read within \(budget.maxDuration); this one took longer"))
            return
        }
    }

    func start(name: UnsafePointer<xmlChar>?, namespace: UnsafePointer<xmlChar>?, attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard problem == nil else { return }
        elements += 1
        guard elements <= budget.maxElements else {
            refuse(.overBudget("an SVG plan may have at most \(budget.maxElements) elements to be read; this one has more"))
            return
        }
        checkTime()
        guard problem == nil else { return }
        var values: [String: String] = [:]
        if let attributes {
            // Five pointers an attribute: local name, prefix, namespace, value start, value end.
            for index in 0..<attributeCount {
                let base = attributes + 5 * index
                guard base[1] == nil, let local = base[0], let start = base[3], let end = base[4] else { continue }
                values[String(cString: local)] = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
            }
        }
        handler.start(SVGElement(name: name.map { String(cString: $0) } ?? "", namespace: namespace.map { String(cString: $0) }, attributes: values))
    }

    func end() {
        guard problem == nil else { return }
        handler.end()
    }

    /// A warning is passed over; the first error ends the parse as not well-formed, unless it is an
    /// encoding libxml2 cannot decode at all or a reference to an entity nobody declared.
    func report(_ error: xmlError?) {
        guard let error, error.level.rawValue >= XML_ERR_ERROR.rawValue, problem == nil else { return }
        let said = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "error \(error.code)"
        let quoted = said.prefix(SVGParser.quotedCharacters)
        if error.code == Int32(XML_ERR_UNSUPPORTED_ENCODING.rawValue) {
            refuse(.encoding("an SVG plan must be encoded in UTF-8, UTF-16, US-ASCII or ISO-8859-1; the parser says: \(quoted)"))
        } else if [XML_ERR_UNDECLARED_ENTITY, XML_WAR_UNDECLARED_ENTITY].contains(where: { error.code == Int32($0.rawValue) }) {
            refuse(.dtd("an SVG plan may not refer to entities other than XML's five; the parser says: \(quoted)"))
        } else {
            refuse(.notSVG("an SVG plan must be well-formed XML; it is not (line \(error.line), column \(error.int2): \(quoted))"))
        }
    }
}
