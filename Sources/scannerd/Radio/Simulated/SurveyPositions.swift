import Positioning

/// Where surveyed locations are, fetched from switchd once per location and remembered
/// (a location's coordinates never change; a deleted one is not asked about again).
actor SurveyPositions {
    typealias Lookup = @Sendable (Int64) async throws -> PlanPoint

    private let lookup: Lookup
    private var known: [Int64: PlanPoint] = [:]

    init(lookup: @escaping Lookup) {
        self.lookup = lookup
    }

    /// Throws the lookup's error when the location is not known yet and cannot be fetched.
    func position(of locationID: Int64) async throws -> PlanPoint {
        if let point = known[locationID] { return point }
        let point = try await lookup(locationID)
        known[locationID] = point
        return point
    }
}
