import Positioning
import ScanContract
import SwitchdStore

extension AppDatabase {
    /// The radio map of the survey as stored now, with the version it was built from, read in
    /// one snapshot; every location's expected error is estimated after the read, outside the
    /// snapshot (``RadioMap/withExpectedErrors(quantile:estimate:)``).
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored row is not what switchd writes.
    func radioMap() async throws -> (map: RadioMap, version: SurveyVersion) {
        let (map, version) = try await readSurvey { survey in
            var builder = RadioMapBuilder(floors: survey.floors, beacons: survey.beacons, locations: survey.locations)
            try survey.forEachReading { builder.add($0) }
            return (builder.build(), survey.version)
        }
        return (map.withExpectedErrors(), version)
    }
}
