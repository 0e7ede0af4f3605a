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

    /// 250 000 elements (an 8 MB plan of nothing but wall lines has 175 000) and 5 seconds (its
    /// whole upload took 1.7 s on a debug build on an x86-64 development machine; not measured
    /// on a Pi).
    static func standard(maxBytes: Int) -> SVGBudget {
        SVGBudget(maxBytes: maxBytes, maxElements: 250_000, maxDuration: .seconds(5))
    }
}
