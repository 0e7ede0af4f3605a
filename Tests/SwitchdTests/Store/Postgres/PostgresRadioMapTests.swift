import Foundation
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The radio map on both databases (docs/scale-out.md): one survey stored the same way on SQLite
/// and on a real PostgreSQL server builds the same map, from the same readings, whether
/// PostgreSQL's are read in one page or many; and the survey version moves with the survey.
@Suite("The radio map on both databases", postgresInstalled, .postgresServer)
struct PostgresRadioMapTests {
    static let now = Date(milliseconds: 1_790_000_100_000)

    @Test func theSameSurveyBuildsTheSameMapOnBothDatabases() async throws {
        var maps: [StoreBackend: RadioMap] = [:]
        for backend in StoreBackend.allCases {
            try await backend.withDatabase { database in
                try await Self.storeSurvey(in: database)
                let (map, version) = try await database.radioMap()
                #expect(version == (try await database.surveyVersion()))
                maps[backend] = map
            }
        }
        let sqlite = try #require(maps[.sqlite])
        #expect(sqlite.locations.count == 2 && sqlite.beacons.count == 1 && sqlite.floors.count == 1)
        #expect(maps[.postgres] == sqlite)
    }

    @Test(arguments: StoreBackend.allCases)
    func everySurveyReadingIsReadOnceWhateverThePageSizeAndLocateReadingsAreLeftOut(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let before = try await database.surveyVersion()
            try await Self.storeSurvey(in: database)
            #expect(try await database.surveyVersion().version > before.version)
            let counts = try await database.readSurvey { survey in
                var whole: [String] = []
                try survey.forEachReading { whole.append("\($0.locationID) \($0.scan.scan) \($0.rssi)") }
                var paged: [String] = []
                try survey.forEachReading(pageSize: 2) { paged.append("\($0.locationID) \($0.scan.scan) \($0.rssi)") }
                return (whole, paged)
            }
            #expect(counts.0.count == 5)
            #expect(counts.1 == counts.0)
        }
    }

    /// A floor with a beacon and two surveyed locations (three readings at the first, two at the
    /// second), then two locate readings, which are not survey readings.
    static func storeSurvey(in database: AppDatabase) async throws {
        let floor = try await database.createFloor(NewFloor(name: "Ground"))
        let room = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
        _ = try await database.createBeacon(NewBeacon(
            uuid: Readings.beaconUUID, major: 1, minor: 2, floorID: floor.id, x: 5, y: 5, measuredPower: -59
        ))
        let spots = [
            try await database.createLocation(NewLocation(roomID: room.id, x: 1, y: 1)),
            try await database.createLocation(NewLocation(roomID: room.id, x: 9, y: 1)),
        ]
        for (index, spot) in spots.enumerated() {
            let revision = try await database.updateSwitch(
                of: .default, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(spot.id), storeData: true), at: now
            ).scanSwitch.revision
            let readings = index == 0
                ? [Readings.wifi(scan: 0, rssi: -50), Readings.ble(scan: 0, rssi: -60), Readings.wifi(scan: 1, rssi: -52, at: 1)]
                : [Readings.wifi(scan: 0, rssi: -70), Readings.ble(scan: 0, rssi: -65)]
            _ = try await database.ingest(Readings.batch(readings, revision: revision), at: now)
        }
        let locate = try await database.updateSwitch(
            of: .default, with: SwitchPatch(scanning: true, mode: .locate, roomID: .set(nil), locationID: .set(nil), storeData: true), at: now
        ).scanSwitch.revision
        _ = try await database.ingest(Readings.batch([Readings.wifi(scan: 0, rssi: -40), Readings.ble(scan: 0, rssi: -45)], revision: locate), at: now)
    }
}
