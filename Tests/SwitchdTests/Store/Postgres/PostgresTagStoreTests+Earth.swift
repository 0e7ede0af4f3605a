import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A tag's positions carry latitude and longitude on a geo-referenced floor, as scanners' do.
extension PostgresTagStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func tagPositionsArePlacedOnEarthOnAGeoreferencedFloor(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, upstairs) = try await PostgresSurveyStoreTests.twoFloors(in: database)
            _ = try await database.setGeoreference(ofFloor: floor.id, PostgresSurveyStoreTests.controlPoints)
            let tag = try await database.createTag(NewTag(name: "Badge", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_11_33))))
            func position(on floor: Floor, at seconds: Double) -> TagPosition {
                TagPosition(
                    id: 0, tagID: tag.id, time: Date(milliseconds: 1_790_000_000_000 + Int64(seconds * 1000)), floorID: floor.id, x: 3, y: 4,
                    roomID: nil, accuracyMetres: 1, method: "fused", scannersHeard: 3
                )
            }
            let kept = try await database.storeTagPosition(position(on: upstairs, at: 0))
            #expect(kept.latitude == nil && kept.longitude == nil)
            let placed = try await database.storeTagPosition(position(on: floor, at: 1))
            let coordinates = try #require(try await database.coordinates(floorID: floor.id, x: 3, y: 4))
            #expect(placed.latitude == coordinates.latitude && placed.longitude == coordinates.longitude)
            #expect(try await database.storeTagPosition(position(on: floor, at: 1)) == placed, "the window's stored position, placed alike")
            #expect(try await database.tagPositions(of: tag.id, since: nil, until: nil, after: 0, limit: 10).items == [kept, placed])
            #expect(try await database.latestTagPosition(of: tag.id) == placed)
        }
    }
}
