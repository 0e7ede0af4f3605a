/// How well a survey positions its own locations: every surveyed location's samples are located
/// against a map built without that location, and each sample's 2-D error is kept. A location
/// that only it can explain (distinctive readings, neighbours near) comes out with small errors; a
/// location whose readings another one far away repeats comes out with large ones.
///
/// The matching method is not part of this type: `locator` builds it from the survey that is left.
/// With more locations than `maximumFolds` the locations are dealt round-robin (in ID order) into
/// that many folds and a fold is left out at a time, so each location is still located against a
/// map without itself (and without the others of its fold); the map then builds `maximumFolds`
/// times instead of once per location.
public struct LeaveOneLocationOut<Key: Hashable & Comparable & Sendable>: Sendable {
    /// The errors (metres) of one location's samples, located without that location.
    public struct Outcome: Hashable, Sendable {
        /// One error per sample the method answered for, in the order of the records.
        public var errors: [Double]
        /// Samples the method gave no answer for (they share no radio with the rest of the survey).
        public var unanswered: Int
        /// Samples placed on another floor or in another building than their own.
        public var wrongFloor: Int
    }

    /// At most this many maps are built; at least 2.
    public var maximumFolds: Int

    public init(maximumFolds: Int = 64) {
        self.maximumFolds = max(maximumFolds, 2)
    }

    /// The outcome per location ID of `records` that carry one; records without an ID stay in
    /// every map and are never left out. Locations that `groups` maps to one group (the points of
    /// one walk survey) are left out together, as one unit; the others are units of their own.
    /// Empty when fewer than two units carry samples (nothing would be left to locate against).
    public func outcomes(
        of records: [FingerprintRecord<Key>], groups: [Int64: Int64] = [:],
        locator: ([FingerprintRecord<Key>]) -> any WiFiLocator<Key>
    ) -> [Int64: Outcome] {
        let locationIDs = Set(records.compactMap(\.locationID)).sorted()
        // A unit is named by its smallest location ID, so units deal into folds in ID order.
        var firstOfGroup: [Int64: Int64] = [:]
        for id in locationIDs { if let group = groups[id], firstOfGroup[group] == nil { firstOfGroup[group] = id } }
        let unitOf = { (id: Int64) in groups[id].flatMap { firstOfGroup[$0] } ?? id }
        let units = Set(locationIDs.map(unitOf)).sorted()
        guard units.count >= 2 else { return [:] }
        let folds = min(units.count, maximumFolds)
        let foldOfUnit = Dictionary(uniqueKeysWithValues: units.enumerated().map { ($0.element, $0.offset % folds) })
        let foldOf = Dictionary(uniqueKeysWithValues: locationIDs.map { ($0, foldOfUnit[unitOf($0)] ?? 0) })
        var outcomes: [Int64: Outcome] = [:]
        for fold in 0..<folds {
            let inFold = { (record: FingerprintRecord<Key>) in record.locationID.map { foldOf[$0] == fold } ?? false }
            let method = locator(records.filter { !inFold($0) })
            for record in records where inFold(record) {
                guard let id = record.locationID else { continue }
                var outcome = outcomes[id] ?? Outcome(errors: [], unanswered: 0, wrongFloor: 0)
                if let fix = method.locate(record.readings) {
                    let dx = fix.estimate.x - record.x, dy = fix.estimate.y - record.y
                    outcome.errors.append((dx * dx + dy * dy).squareRoot())
                    if fix.building != record.building || fix.estimate.floorID != record.floorID { outcome.wrongFloor += 1 }
                } else {
                    outcome.unanswered += 1
                }
                outcomes[id] = outcome
            }
        }
        return outcomes
    }
}
