import Foundation
@testable import Positioning
import Testing

/// The settings the third tag-settings selection chose between (docs/tags.md): which figure of a
/// window is read, how much multilateration weighs against the fingerprint, and dropping the
/// scanner that fits the model worst.
@Suite("Tag locating settings")
struct TagLocatingLeversTests {
    static let txPower = TagMultilaterationTests.txPower

    @Test func eachStatisticReadsItsFigureOfTheWindow() {
        #expect(TagRSSIStatistic.median.value(median: -70, strongest: -64) == -70)
        #expect(TagRSSIStatistic.strongest.value(median: -70, strongest: -64) == -64)
        #expect(TagRSSIStatistic.midpoint.value(median: -70, strongest: -64) == -67)
    }

    @Test func droppingTheWorstScannerUndoesOneObstructedReceiver() throws {
        var hearings = TagMultilaterationTests.square(tagAt: 3, 4, biases: [-15, 0, 0, 0])
        hearings.append(TagMultilaterationTests.hearing("s4", 0, 5, tagAt: 3, 4))
        let error = { (e: PositionEstimate) in ((e.x - 3) * (e.x - 3) + (e.y - 4) * (e.y - 4)).squareRoot() }
        let kept = try #require(TagMultilateration().locate(hearings, txPower: Self.txPower))
        let dropped = try #require(TagMultilateration(settings: .init(dropsWorstScanner: true)).locate(hearings, txPower: Self.txPower))
        #expect(error(kept) > 1, "a receiver 15 dB low drags the tag: \(error(kept)) m")
        // The four left do not surround the tag symmetrically, so the solver's prior pulls a little.
        #expect(error(dropped) < 0.3 && error(dropped) < error(kept) / 4, "the four that agree with the model place it: \(error(dropped)) m")
        #expect(dropped.method == TagMultilateration.methodName)
    }

    @Test func droppingNeedsMoreScannersThanMultilaterationDoes() throws {
        let three = Array(TagMultilaterationTests.square(tagAt: 3, 4, biases: [-15, 0, 0, 0]).prefix(3))
        let kept = try #require(TagMultilateration().locate(three, txPower: Self.txPower))
        let dropped = try #require(TagMultilateration(settings: .init(dropsWorstScanner: true)).locate(three, txPower: Self.txPower))
        #expect(kept == dropped, "with only three scanners none is dropped")
    }

    @Test func aZeroMultilaterationWeightLeavesTheFingerprintAlone() throws {
        var points: [TagReferencePoint] = []
        for x in stride(from: 1.0, through: 9, by: 2) {
            for y in stride(from: 1.0, through: 9, by: 2) {
                var losses: [String: Double] = [:]
                for hearing in TagMultilaterationTests.square(tagAt: x, y) { losses[hearing.scanner] = Self.txPower - hearing.rssi }
                points.append(TagReferencePoint(floorID: 1, x: x, y: y, windows: [losses]))
            }
        }
        let map = TagFingerprint(points: points)
        let hearings = TagMultilaterationTests.square(tagAt: 3.6, 4.3)
        let alone = try #require(FixedScannerLocator(multilateration: TagMultilateration(), fingerprint: map, multilaterationWeight: 0)
            .locate(hearings, txPower: Self.txPower))
        let fused = try #require(FixedScannerLocator(multilateration: TagMultilateration(), fingerprint: map).locate(hearings, txPower: Self.txPower))
        #expect(alone.method == TagFingerprint.methodName)
        #expect(fused.method != TagFingerprint.methodName)
        let heavier = try #require(FixedScannerLocator(multilateration: TagMultilateration(), fingerprint: map, multilaterationWeight: 4)
            .locate(hearings, txPower: Self.txPower))
        let error = { (e: PositionEstimate) in ((e.x - 3.6) * (e.x - 3.6) + (e.y - 4.3) * (e.y - 4.3)).squareRoot() }
        #expect(error(heavier) < error(fused), "exact hearings: weighing multilateration more moves toward its exact answer")
    }
}
