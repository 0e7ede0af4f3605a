import Hummingbird

/// Why bytes that look like an SVG are not an acceptable floor plan.
enum SVGProblem: Error, Equatable, Sendable {
    /// Not well-formed XML, or its root is not `svg` in the SVG namespace: not an SVG at all.
    case notSVG(String)
    /// It declares entities, elements, attribute lists or notations (a DTD's internal subset), or
    /// refers to an entity other than XML's five.
    case dtd(String)
    /// Its characters are in an encoding other than UTF-8, UTF-16, US-ASCII or ISO-8859-1.
    case encoding(String)
    /// Larger, or more work to read, than its ``SVGBudget``.
    case overBudget(String)

    /// Says what is wrong, naming the plan as "an SVG plan".
    var message: String {
        switch self {
        case .notSVG(let message), .dtd(let message), .encoding(let message), .overBudget(let message): message
        }
    }

    /// The answer to an upload refused for it: 415 `unsupported_media_type` for what is no SVG,
    /// 422 for an SVG switchd will not read (`svg_dtd`, `svg_encoding`, `svg_over_budget`).
    var apiError: APIError {
        switch self {
        case .notSVG(let message): APIError(.unsupportedMediaType, code: "unsupported_media_type", message: message)
        case .dtd(let message): APIError(.unprocessableContent, code: "svg_dtd", message: message)
        case .encoding(let message): APIError(.unprocessableContent, code: "svg_encoding", message: message)
        case .overBudget(let message): APIError(.unprocessableContent, code: "svg_over_budget", message: message)
        }
    }
}
