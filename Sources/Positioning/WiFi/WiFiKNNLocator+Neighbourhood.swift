extension WiFiKNNLocator {
    /// One scan's neighbours in the locator's indexes, searched once, from which `locate(_:)` is
    /// answered under many settings without searching again: the building (its voters are this
    /// locator's), the nearest locations in that building, and per floor asked for, the nearest
    /// samples and locations on it. Any settings with this locator's building voters, at most
    /// `floorVoterLimit` floor voters and at most `neighbourLimit` neighbours get the fix
    /// `with(settings).locate(_:)` gives, bit for bit: each list is the exact nearest-first ranking
    /// `nearest(_:in:scope:reachRatio:)` returns, and a smaller k or a finite neighbour ratio only
    /// keeps a prefix of it or drops what `fix(from:in:building:floor:)` would drop anyway.
    struct Neighbourhood {
        let floorVoterLimit: Int
        let neighbourLimit: Int
        /// The building's number in `locations.buildings`.
        let building: Int64
        /// The building's number among the samples' buildings; nil when they have none of that name.
        let sampleBuilding: Int32?
        /// The `floorVoterLimit` locations of the building nearest to the scan, nearest first.
        let inBuilding: NearestFingerprints
        var atLocations: FingerprintSearch
        /// Nil when the scan shares no radio with the samples.
        var atSamples: FingerprintSearch?
        /// Per floor, the `neighbourLimit` nearest samples and locations on it, once asked for.
        var samplesOnFloor: [Int64: NearestFingerprints] = [:]
        var locationsOnFloor: [Int64: NearestFingerprints] = [:]
    }

    /// Searches both indexes once for the scan, given as `heardRadios(in:)` gives it (both indexes
    /// number radios alike when built from one survey); nil when it shares no radio with the
    /// locations (when `locate(_:)` answers nil too).
    func neighbourhood(of heard: [(column: Int32, value: Double)], floorVoterLimit: Int, neighbourLimit: Int) -> Neighbourhood? {
        guard var atLocations = locations.search(heard: heard) else { return nil }
        let buildingVoters = locations.nearest(settings.buildingVoters, in: &atLocations, scope: .everywhere)
        let building = vote(among: buildingVoters, power: 1) { Int64(locations.buildingOf[$0]) }
        let inBuilding = FingerprintScope(building: Int32(building), floor: nil)
        let floorVoters = buildingVoters.restricted(to: max(floorVoterLimit, 1)) { locations.buildingOf[Int($0)] == inBuilding.building }
            ?? locations.nearest(floorVoterLimit, in: &atLocations, scope: inBuilding)
        let name = locations.buildings[Int(building)]
        return Neighbourhood(
            floorVoterLimit: floorVoterLimit, neighbourLimit: neighbourLimit, building: building,
            sampleBuilding: samples.buildings.firstIndex(of: name).map(Int32.init), inBuilding: floorVoters,
            atLocations: atLocations, atSamples: samplesAreLocations ? atLocations : samples.search(heard: heard))
    }

    /// The floor `settings` vote for: `settings.floorVoters` (at most the neighbourhood's limit)
    /// nearest locations of the building, weighted by `settings.floorVoteWeightPower`.
    func floor(in neighbourhood: Neighbourhood, settings: Settings) -> Int64 {
        precondition(settings.buildingVoters == self.settings.buildingVoters && settings.floorVoters <= neighbourhood.floorVoterLimit)
        let voters = neighbourhood.inBuilding.restricted(to: max(settings.floorVoters, 1)) { _ in true } ?? neighbourhood.inBuilding
        return vote(among: voters, power: settings.floorVoteWeightPower) { locations.floorOf[$0] }
    }

    /// The fix `with(settings).locate(_:)` gives when its floor vote chose `floor`: from the
    /// nearest samples on the floor, or from the nearest locations when the settings ask for it or
    /// no sample on the floor shares a radio with the scan.
    func fix(in neighbourhood: inout Neighbourhood, floor: Int64, settings: Settings) -> WiFiFix {
        precondition(settings.neighbours <= neighbourhood.neighbourLimit)
        let name = locations.buildings[Int(neighbourhood.building)]
        if !settings.positionFromLocations, let sampleBuilding = neighbourhood.sampleBuilding, neighbourhood.atSamples != nil {
            let nearest: NearestFingerprints
            if let known = neighbourhood.samplesOnFloor[floor] {
                nearest = known
            } else {
                // Moved out and back, so that the search's arrays are not copied when it extends them.
                var atSamples = neighbourhood.atSamples!
                neighbourhood.atSamples = nil
                nearest = samples.nearest(
                    neighbourhood.neighbourLimit, in: &atSamples, scope: FingerprintScope(building: sampleBuilding, floor: floor))
                neighbourhood.atSamples = atSamples
                neighbourhood.samplesOnFloor[floor] = nearest
            }
            if !nearest.isEmpty { return fix(from: Self.first(settings.neighbours, of: nearest), in: samples, building: name, floor: floor, settings: settings) }
        }
        let nearest: NearestFingerprints
        if let known = neighbourhood.locationsOnFloor[floor] {
            nearest = known
        } else {
            nearest = locations.nearest(
                neighbourhood.neighbourLimit, in: &neighbourhood.atLocations,
                scope: FingerprintScope(building: Int32(neighbourhood.building), floor: floor))
            neighbourhood.locationsOnFloor[floor] = nearest
        }
        return fix(from: Self.first(settings.neighbours, of: nearest), in: locations, building: name, floor: floor, settings: settings)
    }

    /// The first `k` of a nearest-first list (all of it when shorter).
    private static func first(_ k: Int, of nearest: NearestFingerprints) -> NearestFingerprints {
        nearest.restricted(to: max(k, 1)) { _ in true } ?? nearest
    }
}
