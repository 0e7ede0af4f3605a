import Evaluation
import Foundation
import Harness
import Positioning
import ScanContract

/// Replays a ``TagReplayScene`` through a running switchd, the way fixed scanners and an admin
/// would: a floor, one placed scanner per receiver, the tag, and a survey: each training point
/// registered as a beacon and heard by the scanners, which gives switchd its fingerprint map and
/// the samples it estimates every receive offset from. Without calibration each placement
/// overrides the offset with 0. Then each window: every receiver that heard the tag posts its
/// sighting (`POST /v1/sightings`). switchd locates the tag once per window, when it closes (the
/// next window's first post closes it; the last window closes on switchd's clock), and stores
/// the position: once every window is posted and the last one closed, the stored positions are
/// read back and each window's is scored against the truth.
struct TagReplayDriver {
    let client: APIClient
    /// Names this run's floor, scanners, tag and beacons, so runs share one switchd.
    let label: String

    /// Where the survey's windows start (seconds since 1970), long before any scored window.
    static let surveyOrigin = 1_000_000.0

    struct Result: Encodable {
        /// Nil when switchd located the tag in no window.
        var errors: ErrorSummary?
        var located: Int
        var windows: Int
        /// Receiver name → the offset switchd used, dB.
        var receiveOffsets: [String: Double]
    }

    /// - Throws: when switchd refuses a request (the message says which).
    func run(_ scene: TagReplayScene, calibrate: Bool) async throws -> Result {
        let floor = try await client.createFloor("\(label) floor")
        let scanners = try scene.receivers.indices.map { try ScannerID("\(label)-\($0)") }
        for (index, receiver) in scene.receivers.enumerated() {
            _ = try await client.call("POST", "/v1/scanners", json: NewScanner(id: scanners[index], name: receiver.name), as: ScanContract.Scanner.self)
            _ = try await client.call(
                "PUT", "/v1/scanners/\(scanners[index])/placement",
                json: NewScannerPlacement(
                    floorID: floor.id, x: receiver.x, y: receiver.y, height: receiver.z, receiveOffsetOverride: calibrate ? nil : 0,
                    pathLossExponent: scene.model.exponent
                ),
                as: ScannerPlacement.self
            )
        }
        let uuid = UUID()
        let txPower = Int(scene.model.txPower.rounded())
        let tag = try await client.call(
            "POST", "/v1/tags",
            json: NewTag(name: "\(label) tag", identity: .iBeacon(BeaconID(uuid: uuid, major: 1, minor: 0)), txPower: txPower, height: scene.model.tagHeight),
            as: Tag.self
        )
        try await survey(scene, floorID: floor.id, scanners: scanners, uuid: uuid, txPower: txPower)

        var lastEnd: Date?
        for window in scene.windows {
            let end = Date(timeIntervalSince1970: window.end), start = end.addingTimeInterval(-window.length)
            for (index, heard) in window.heard.sorted(by: { $0.key < $1.key }) {
                guard let sighting = heard.sighting(of: tag.identity, from: start, to: end) else { continue }
                _ = try await client.call(
                    "POST", "/v1/sightings", json: SightingBatch(scannerID: scanners[index], sightings: [sighting]), as: SightingReceipt.self
                )
                lastEnd = end
            }
        }
        if let lastEnd { try await waitForWindow(ending: lastEnd, of: tag.id) }
        var located: [Int64: TagPosition] = [:]
        for position in try await storedPositions(of: tag.id) { located[Self.key(position.time)] = position }
        var errors: [Double] = []
        for window in scene.windows {
            guard let position = located[Self.key(Date(timeIntervalSince1970: window.end))] else { continue }
            errors.append(((position.x - window.truthX) * (position.x - window.truthX) + (position.y - window.truthY) * (position.y - window.truthY)).squareRoot())
        }
        var offsets: [String: Double] = [:]
        for (index, receiver) in scene.receivers.enumerated() {
            offsets[receiver.name] = try await client.call("GET", "/v1/scanners/\(scanners[index])/placement", as: ScannerPlacement.self).receiveOffset
        }
        return Result(errors: ErrorSummary(errors: errors), located: errors.count, windows: scene.windows.count, receiveOffsets: offsets)
    }

    /// A time as the v1 JSON carries it (whole milliseconds, cut as ``JSONCoding`` writes them),
    /// in milliseconds: a window's end as switchd stores it.
    static func key(_ time: Date) -> Int64 {
        let sent = JSONCoding.parseDate(JSONCoding.formatDate(time)) ?? time
        return Int64((sent.timeIntervalSince1970 * 1000).rounded())
    }

    /// Every position switchd stored for the tag, one per closed window, oldest first.
    private func storedPositions(of tagID: Int64) async throws -> [TagPosition] {
        var all: [TagPosition] = []
        var cursor: String?
        repeat {
            let page = try await client.call(
                "GET", "/v1/tags/\(tagID)/positions?limit=1000" + (cursor.map { "&cursor=\($0)" } ?? ""), as: Page<TagPosition>.self
            )
            all += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return all
    }

    /// Waits until switchd has closed the window ending at `end` (no later post closes the last
    /// window: switchd does on its clock once its scanners fall quiet), reading the tag's latest
    /// position; throws after ``lastWindowTimeout``.
    private func waitForWindow(ending end: Date, of tagID: Int64) async throws {
        let deadline = ContinuousClock.now + Self.lastWindowTimeout
        while ContinuousClock.now < deadline {
            let response = try await client.send("GET", "/v1/tags/\(tagID)/positions/latest")
            if response.status == 200, Self.key(try response.decode(TagPosition.self).time) >= Self.key(end) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("switchd did not close the tag's last window (ending \(JSONCoding.formatDate(end))) within \(Self.lastWindowTimeout)")
    }

    /// Far longer than switchd's close delay (1.5 s) on a loaded machine.
    static let lastWindowTimeout: Duration = .seconds(60)

    /// Registers every training point as a beacon (minor = its index, power = the tag's) and
    /// posts each scanner's windows of them, the first window of every point first, then the
    /// second, and so on, so the latest sightings switchd calibrates from span all points. Each
    /// window ends at its own time (`surveyOrigin` + window × 10,000 s + point), so switchd keeps
    /// a point's windows apart.
    private func survey(_ scene: TagReplayScene, floorID: Int64, scanners: [ScannerID], uuid: UUID, txPower: Int) async throws {
        var rounds: [Int: [Int: [Sighting]]] = [:]
        for (pointIndex, point) in scene.calibration.enumerated() {
            let identity = BeaconID(uuid: uuid, major: 2, minor: UInt16(pointIndex))
            _ = try await client.call(
                "POST", "/v1/beacons",
                json: NewBeacon(uuid: uuid, major: 2, minor: UInt16(pointIndex), floorID: floorID, x: point.x, y: point.y, z: point.z, measuredPower: txPower),
                as: Beacon.self
            )
            for (windowIndex, window) in point.windows.enumerated() {
                let time = Date(timeIntervalSince1970: Self.surveyOrigin + Double(windowIndex) * 10_000 + Double(pointIndex))
                for (index, heard) in window {
                    if let sighting = heard.sighting(of: .iBeacon(identity), from: time, to: time) {
                        rounds[windowIndex, default: [:]][index, default: []].append(sighting)
                    }
                }
            }
        }
        var batches: [Int: [Sighting]] = [:]
        for (_, round) in rounds.sorted(by: { $0.key < $1.key }) {
            for (index, sightings) in round { batches[index, default: []] += sightings }
        }
        for (index, sightings) in batches.sorted(by: { $0.key < $1.key }) {
            for chunk in stride(from: 0, to: sightings.count, by: SightingBatch.maxSightings) {
                let part = Array(sightings[chunk..<min(chunk + SightingBatch.maxSightings, sightings.count)])
                _ = try await client.call("POST", "/v1/sightings", json: SightingBatch(scannerID: scanners[index], sightings: part), as: SightingReceipt.self)
            }
        }
    }
}
