import Foundation
import ScanContract

/// What the tracking end-to-end tests stand on: a real switchd on loopback, in a folder of its
/// own, with one floor holding one room and one location, and the fixed scanners and tags they
/// register through the admin API. ``stop()`` kills switchd and removes the folder.
public struct TrackingSite: Sendable {
    public let folder: TemporaryFolder
    public let switchd: SwitchdInstance
    public let api: APIClient
    public let floor: Floor
    public let room: Room
    public let location: Location

    /// Starts switchd in a new folder named after `name` and creates floor "Ground", room "Bike
    /// store" and a location at (`x`, `y`). Throws what starting switchd or the API throws
    /// (switchd is killed and the folder removed then).
    public static func start(_ name: String, locationAt x: Double, _ y: Double) async throws -> TrackingSite {
        let folder = try TemporaryFolder(name)
        var started: SwitchdInstance?
        do {
            let switchd = try await SwitchdInstance.start(in: folder)
            started = switchd
            let api = switchd.adminClient()
            let floor = try await api.createFloor("Ground")
            let room = try await api.createRoom("Bike store", floor: floor)
            let location = try await api.createLocation(in: room, x: x, y: y)
            return TrackingSite(folder: folder, switchd: switchd, api: api, floor: floor, room: room, location: location)
        } catch {
            started?.process.signal(SIGKILL)
            folder.remove()
            throw error
        }
    }

    /// Makes `scannerID` a fixed scanner of the floor at (`x`, `y`), registering it first unless
    /// it is the scanner switchd always has (`default`). The simulation is flat: the antenna is
    /// at the height its tags and beacons are given, with the exponent its transmitters use.
    @discardableResult
    public func placeScanner(
        _ scannerID: String, at x: Double, _ y: Double, height: Double = 1, pathLossExponent: Double = 2
    ) async throws -> ScannerPlacement {
        let id = try ScannerID(scannerID)
        if id != .default {
            _ = try await api.call("POST", "/v1/scanners", json: NewScanner(id: id), as: ScanContract.Scanner.self)
        }
        return try await api.call(
            "PUT", "/v1/scanners/\(id)/placement",
            json: NewScannerPlacement(floorID: floor.id, x: x, y: y, height: height, pathLossExponent: pathLossExponent), as: ScannerPlacement.self
        )
    }

    /// Registers a tag through `POST /v1/tags`.
    public func registerTag(_ new: NewTag) async throws -> ScanContract.Tag {
        try await api.call("POST", "/v1/tags", json: new, as: ScanContract.Tag.self)
    }

    /// Kills switchd (SIGKILL) and removes the folder.
    public func stop() {
        switchd.process.signal(SIGKILL)
        folder.remove()
    }
}
