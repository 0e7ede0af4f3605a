import Positioning
import ScanContract
import SwitchdStore

extension AppDatabase {
    /// The radio map of the survey as stored now, with the version it was built from, read in
    /// one snapshot; without expected errors, which ``ExpectedErrorEstimates`` adds in the background.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored row is not what switchd writes.
    func radioMap() async throws -> (map: RadioMap, version: SurveyVersion) {
        try await readSurvey { survey in
            var builder = RadioMapBuilder(floors: survey.floors, beacons: survey.beacons, locations: survey.locations, rooms: survey.rooms)
            try survey.forEachReading { builder.add($0) }
            return (builder.build(), survey.version)
        }
    }
}
