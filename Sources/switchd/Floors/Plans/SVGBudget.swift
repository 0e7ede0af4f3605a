/// What reading one SVG plan may cost. A plan over any of it is refused whole
/// (``SVGProblem/overBudget(_:)``): an upload with 422, a stored plan is read as one without walls.
struct SVGBudget: Sendable {
    /// The document's size in bytes.
    var maxBytes: Int
    /// Elements (start tags) read: bounds the parse's work and what is built from it (a wall
    /// element makes up to its points' count of segments).
    var maxElements: Int
    /// Time from the start of the parse, looked at on every element and every run of text; the
    /// parse stops at the first look past it.
    var maxDuration: Duration

    /// 250 000 elements (a detailed CAD export of one floor has tens of thousands) and 5 seconds
    /// (an 8 MB plan of 180 000 lines takes under a second on a Raspberry Pi 4).
    static func standard(maxBytes: Int) -> SVGBudget {
        SVGBudget(maxBytes: maxBytes, maxElements: 250_000, maxDuration: .seconds(5))
    }
}
