import Foundation
@testable import Positioning
import Testing

@Suite("Tag fingerprints from fixed scanners")
struct TagFingerprintTests {
    typealias Scene = TagMultilaterationTests

    /// The path loss each corner scanner reads of an emitter at (x, y), each receiver `biases` dB off.
    static func losses(at x: Double, _ y: Double, biases: [Double] = [0, 0, 0, 0]) -> [String: Double] {
        var losses: [String: Double] = [:]
        for hearing in Scene.square(tagAt: x, y, biases: biases) { losses[hearing.scanner] = Scene.txPower - hearing.rssi }
        return losses
    }

    /// Reference points on a 1 m grid over the square, heard by receivers `biases` dB off.
    static func grid(floor: Int64 = 1, biases: [Double] = [0, 0, 0, 0]) -> [TagReferencePoint] {
        stride(from: 0.0, through: 10, by: 1).flatMap { x in
            stride(from: 0.0, through: 10, by: 1).map { y in
                TagReferencePoint(floorID: floor, x: x, y: y, windows: [losses(at: x, y, biases: biases)])
            }
        }
    }

    @Test func aTagWhereAPointWasSurveyedIsPlacedThere() throws {
        let map = TagFingerprint(points: Self.grid(), settings: .init(k: 1))
        let estimate = try #require(map.locate(Self.losses(at: 3, 7)))
        #expect(estimate.x == 3 && estimate.y == 7)
        #expect(estimate.floorID == 1)
        #expect(estimate.method == TagFingerprint.methodName)
        #expect(estimate.accuracyMetres == 1, "one point has no spread: the minimum accuracy")
    }

    @Test func receiversThatReadLowDoNotMatterWhenTheyMadeTheMap() throws {
        let biases = [-9.0, 4, 0, -3]
        let map = TagFingerprint(points: Self.grid(biases: biases), settings: .init(k: 1))
        let estimate = try #require(map.locate(Self.losses(at: 6, 2, biases: biases)))
        #expect(estimate.x == 6 && estimate.y == 2)
    }

    @Test func theAverageOfTheBestPointsFallsBetweenThem() throws {
        let map = TagFingerprint(points: Self.grid(), settings: .init(k: 4))
        let estimate = try #require(map.locate(Self.losses(at: 4.5, 4.5)))
        #expect(abs(estimate.x - 4.5) < 0.01 && abs(estimate.y - 4.5) < 0.01, "the four surrounding points weigh alike")
        #expect(estimate.accuracyMetres > 0.7 && estimate.accuracyMetres < 1.01)
    }

    @Test func aScannerThatDidNotHearCountsAsBeyondTheFarthest() throws {
        let map = TagFingerprint(points: Self.grid(), settings: .init(k: 1))
        #expect(map.notHeardLoss > Self.losses(at: 0, 0).values.max() ?? 0)
        var query = Self.losses(at: 1, 1)
        query["s2"] = nil
        let estimate = try #require(map.locate(query))
        #expect((estimate.x - 1) * (estimate.x - 1) + (estimate.y - 1) * (estimate.y - 1) <= 2, "the far corner's silence still fits")
    }

    @Test func theFloorIsTheBestPointsAndOnlyItsPointsAreAveraged() throws {
        let upstairs = [TagReferencePoint(floorID: 2, x: 9, y: 9, windows: [Self.losses(at: 2, 2, biases: [1, 1, 1, 1])])]
        let map = TagFingerprint(points: Self.grid() + upstairs, settings: .init(k: 3))
        let estimate = try #require(map.locate(Self.losses(at: 2, 2, biases: [1, 1, 1, 1])))
        #expect(estimate.floorID == 2)
        #expect(estimate.x == 9 && estimate.y == 9)
    }

    @Test func noMapOrNoKnownScannerPlacesNothing() {
        #expect(TagFingerprint(points: []).locate(Self.losses(at: 1, 1)) == nil)
        #expect(TagFingerprint(points: Self.grid()).locate(["elsewhere": 50]) == nil)
        let silent = TagReferencePoint(floorID: 1, x: 0, y: 0, windows: [[:]])
        #expect(TagFingerprint(points: [silent]).isEmpty)
    }

    @Test func windowsOfOnePointAreAveraged() throws {
        let point = TagReferencePoint(floorID: 1, x: 0, y: 0, windows: [["a": 50, "b": 60], ["a": 54]])
        let other = TagReferencePoint(floorID: 1, x: 5, y: 0, windows: [["a": 52, "b": 66]])
        let map = TagFingerprint(points: [point, other], settings: .init(k: 1, notHeardMargin: 4))
        #expect(map.notHeardLoss == 70)
        // The first point reads a: 52, b: (60 + 70) / 2 = 65; the query is closer to it.
        let estimate = try #require(map.locate(["a": 52, "b": 65]))
        #expect(estimate.x == 0)
    }
}

@Suite("Fixed-scanner locator: multilateration fused with fingerprints")
struct FixedScannerLocatorTests {
    typealias Scene = TagMultilaterationTests

    @Test func withoutAMapItIsMultilateration() throws {
        let locator = FixedScannerLocator(multilateration: TagMultilateration(), fingerprint: TagFingerprint(points: []))
        let estimate = try #require(locator.locate(Scene.square(tagAt: 3, 4), txPower: Scene.txPower))
        #expect(estimate.method == TagMultilateration.methodName)
    }

    @Test func aMapPullsABiasedMultilaterationTowardsTheTruth() throws {
        // A receiver reading 9 dB low that no offset corrects: the map was heard by it too.
        let biases = [-9.0, 0, 0, 0]
        let hearings = Scene.square(tagAt: 3, 4, biases: biases)
        let alone = try #require(TagMultilateration().locate(hearings, txPower: Scene.txPower))
        let locator = FixedScannerLocator(
            multilateration: TagMultilateration(), fingerprint: TagFingerprint(points: TagFingerprintTests.grid(biases: biases))
        )
        let fused = try #require(locator.locate(hearings, txPower: Scene.txPower))
        let error = { (e: PositionEstimate) in ((e.x - 3) * (e.x - 3) + (e.y - 4) * (e.y - 4)).squareRoot() }
        #expect(fused.method == PositionFusion.methodName)
        #expect(error(fused) < error(alone) / 2)
    }

    @Test func aTagOfAnotherPowerMatchesTheMap() throws {
        let hearings = Scene.square(tagAt: 7, 2)
        let quieter = hearings.map { hearing in
            var quieter = hearing
            quieter.rssi -= 12
            return quieter
        }
        let locator = FixedScannerLocator(
            multilateration: TagMultilateration(), fingerprint: TagFingerprint(points: TagFingerprintTests.grid(), settings: .init(k: 1))
        )
        let loud = try #require(locator.locate(hearings, txPower: Scene.txPower))
        let quiet = try #require(locator.locate(quieter, txPower: Scene.txPower - 12))
        #expect(abs(quiet.x - loud.x) < 1e-6 && abs(quiet.y - loud.y) < 1e-6)
        #expect(abs(quiet.x - 7) < 0.05 && abs(quiet.y - 2) < 0.05)
    }
}

@Suite("Accuracy scales measured on the survey")
struct TagAccuracyScalesTests {
    typealias Scene = TagMultilaterationTests

    static func placements(offsets: [Double] = [0, 0, 0, 0]) -> [String: FixedScannerHearing] {
        var placements: [String: FixedScannerHearing] = [:]
        for (index, hearing) in Scene.square(tagAt: 0, 0, offsets: offsets).enumerated() {
            var placed = hearing
            placed.rssi = 0
            placements[hearing.scanner] = placed
            #expect(hearing.scanner == "s\(index)")
        }
        return placements
    }

    @Test func aBiasedMultilaterationIsWeightedDownAgainstTheMap() {
        // Scanner s0 reads 9 dB low and no offset says so; the map was heard by it all the same.
        let points = TagFingerprintTests.grid(biases: [-9, 0, 0, 0]).map { point in
            var atHeight = point
            atHeight.height = 1
            return atHeight
        }
        let map = TagFingerprint(points: points)
        let scales = TagAccuracyScales(points: points, placements: Self.placements(), multilateration: TagMultilateration(), fingerprint: map)
        #expect(scales.samples == points.count)
        #expect(scales.multilateration > scales.fingerprint, "\(scales)")

        let corrected = TagAccuracyScales(
            points: points, placements: Self.placements(offsets: [9, 0, 0, 0]), multilateration: TagMultilateration(), fingerprint: map
        )
        #expect(corrected.multilateration < scales.multilateration / 2, "with the offset in use, multilateration is exact: \(corrected)")
    }

    @Test func aSmallSurveyLeavesTheRadiiAsTheyAre() {
        let points = Array(TagFingerprintTests.grid().prefix(TagAccuracyScales.minimumSamples - 1))
        let scales = TagAccuracyScales(
            points: points, placements: Self.placements(), multilateration: TagMultilateration(), fingerprint: TagFingerprint(points: points)
        )
        #expect(scales == TagAccuracyScales())
    }

    @Test func theLocatorFusesWithScaledRadii() throws {
        let hearings = Scene.square(tagAt: 3, 4, biases: [-9, 0, 0, 0])
        let map = TagFingerprint(points: TagFingerprintTests.grid(biases: [-9, 0, 0, 0]))
        let plain = FixedScannerLocator(multilateration: TagMultilateration(), fingerprint: map)
        let distrustful = FixedScannerLocator(
            multilateration: TagMultilateration(), fingerprint: map, scales: TagAccuracyScales(multilateration: 10, fingerprint: 1)
        )
        let fingerprintOnly = try #require(map.locate(Dictionary(uniqueKeysWithValues: hearings.map { ($0.scanner, Scene.txPower - $0.rssi) })))
        let a = try #require(plain.locate(hearings, txPower: Scene.txPower))
        let b = try #require(distrustful.locate(hearings, txPower: Scene.txPower))
        let distance = { (e: PositionEstimate) in ((e.x - fingerprintOnly.x) * (e.x - fingerprintOnly.x) + (e.y - fingerprintOnly.y) * (e.y - fingerprintOnly.y)).squareRoot() }
        #expect(distance(b) < distance(a) / 10, "a multilateration radius 10 times wider weighs 100 times less")
    }
}
