import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `GET /v1/measurements`: cursor paging and filters.
@Suite struct PagingTests {
    /// 250 readings: 125 at the first spot (scanner default), 125 at the second (scanner "pi"),
    /// alternating Wi-Fi and BLE, one second apart.
    struct Stored {
        var first: SurveySpot
        var second: Location
        var all: [ScanContract.Measurement]
    }

    static func store250(_ client: some TestClientProtocol) async throws -> Stored {
        let first = try await SurveySpot.make(client)
        let secondRoom = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: first.floor.id, name: "Hall"), as: Room.self)
        let second = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: secondRoom.id, x: 7, y: 1), as: Location.self)
        let pi = try ScannerID("pi")
        _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: pi), as: ScanContract.Scanner.self)
        let atFirst = try await client.startSurvey(at: first.location.id)
        let atSecond = try await client.startSurvey(at: second.id, scanner: pi)

        var all: [ScanContract.Measurement] = []
        for chunk in 0..<5 {
            for (scanner, revision) in [(ScannerID.default, atFirst.revision), (pi, atSecond.revision)] {
                let readings = (0..<25).map { index -> ScanContract.Measurement in
                    let offset = TimeInterval(all.count + index)
                    return index.isMultiple(of: 2) ? Readings.wifi(scan: chunk, at: offset) : Readings.ble(scan: chunk, at: offset)
                }
                _ = try await client.uploadNew(Readings.batch(readings, revision: revision, scanner: scanner))
                all += readings
            }
        }
        return Stored(first: first, second: second, all: all)
    }

    /// Follows `nextCursor` from the first page; returns the page sizes and every item.
    static func pageThrough(_ client: some TestClientProtocol, _ query: String) async throws -> (sizes: [Int], items: [StoredMeasurement]) {
        var sizes: [Int] = []
        var items: [StoredMeasurement] = []
        var cursor: String?
        repeat {
            let uri = "/v1/measurements?\(query)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = try await client.expect(.ok, get: uri, as: Page<StoredMeasurement>.self)
            sizes.append(page.items.count)
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return (sizes, items)
    }

    @Test func pagesThrough250WithoutGapsOrRepeats() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let stored = try await Self.store250(client)
            let (sizes, items) = try await Self.pageThrough(client, "limit=100")
            #expect(sizes == [100, 100, 50])
            #expect(items.map(\.sequence) == Array(1...250))
            #expect(items.map(\.measurement) == stored.all)

            let defaultPage = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
            #expect(defaultPage.items.count == QueryParameters.defaultPageLimit && defaultPage.nextCursor != nil)
            let exact = try await Self.pageThrough(client, "limit=125")
            #expect(exact.sizes == [125, 125], "no empty last page when the rows end on a page boundary")
        }
    }

    @Test func filtersNarrowThePages() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let stored = try await Self.store250(client)
            let pi = try ScannerID("pi")

            let wifi = try await Self.pageThrough(client, "limit=100&kind=wifi")
            #expect(wifi.items.count == stored.all.filter { $0.kind == .wifi }.count)
            #expect(wifi.items.allSatisfy { $0.measurement.kind == .wifi })

            let atSecond = try await Self.pageThrough(client, "limit=100&location=\(stored.second.id)")
            #expect(atSecond.sizes == [100, 25])
            #expect(atSecond.items.allSatisfy { $0.locationID == stored.second.id && $0.scannerID == pi })

            let inFirstRoom = try await Self.pageThrough(client, "limit=1000&room=\(stored.first.room.id)")
            #expect(inFirstRoom.items.count == 125 && inFirstRoom.items.allSatisfy { $0.roomID == stored.first.room.id })

            let byScanner = try await Self.pageThrough(client, "scanner=default&kind=ble&limit=10")
            #expect(byScanner.items.count == stored.all.enumerated().filter { $0.offset / 25 % 2 == 0 && $0.element.kind == .ble }.count)
            #expect(byScanner.items.allSatisfy { $0.scannerID == .default && $0.measurement.kind == .ble })

            let since = JSONCoding.formatDate(Readings.start.addingTimeInterval(100))
            let until = JSONCoding.formatDate(Readings.start.addingTimeInterval(150))
            let window = try await Self.pageThrough(client, "since=\(since)&until=\(until)&limit=20")
            #expect(window.items.map(\.measurement) == Array(stored.all[100..<150]), "since is inclusive, until exclusive")
            #expect(window.items.map(\.sequence) == window.items.map(\.sequence).sorted())

            let nothing = try await client.expect(.ok, get: "/v1/measurements?location=999", as: Page<StoredMeasurement>.self)
            #expect(nothing.items.isEmpty && nothing.nextCursor == nil)
        }
    }
}
