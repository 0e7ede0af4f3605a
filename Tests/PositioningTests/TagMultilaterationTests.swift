import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("Tag multilateration from fixed scanners")
struct TagMultilaterationTests {
    static let txPower = -60.0

    /// A fixed scanner at (x, y), 2.5 m up, hearing a tag at (tagX, tagY) 1 m up exactly as the
    /// model says, reading `bias` dB off (a receiver reading low has a negative bias).
    static func hearing(
        _ name: String, _ x: Double, _ y: Double, floor: Int64 = 1, tagAt tagX: Double, _ tagY: Double, bias: Double = 0, offset: Double = 0
    ) -> FixedScannerHearing {
        let d = (pow(x - tagX, 2) + pow(y - tagY, 2) + pow(2.5 - 1.0, 2)).squareRoot()
        return FixedScannerHearing(
            scanner: name, floorID: floor, x: x, y: y, height: 2.5, receiveOffset: offset, pathLossExponent: 2,
            rssi: txPower - 20 * log10(d) + bias
        )
    }

    static func square(tagAt x: Double, _ y: Double, biases: [Double] = [0, 0, 0, 0], offsets: [Double] = [0, 0, 0, 0]) -> [FixedScannerHearing] {
        let corners = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
        return corners.indices.map { i in
            hearing("s\(i)", corners[i].0, corners[i].1, tagAt: x, y, bias: biases[i], offset: offsets[i])
        }
    }

    @Test func exactHearingsRecoverTheTag() throws {
        let estimate = try #require(TagMultilateration().locate(Self.square(tagAt: 3, 4), txPower: Self.txPower))
        #expect(abs(estimate.x - 3) < 0.05 && abs(estimate.y - 4) < 0.05)
        #expect(estimate.floorID == 1)
        #expect(estimate.method == TagMultilateration.methodName)
    }

    @Test func theReceiveOffsetUndoesAReceiverThatReadsLow() throws {
        let biases = [-9.0, 0, 0, 0]
        let uncorrected = try #require(TagMultilateration().locate(Self.square(tagAt: 3, 4, biases: biases), txPower: Self.txPower))
        let corrected = try #require(TagMultilateration().locate(
            Self.square(tagAt: 3, 4, biases: biases, offsets: [9, 0, 0, 0]), txPower: Self.txPower
        ))
        let error = { (e: PositionEstimate) in ((e.x - 3) * (e.x - 3) + (e.y - 4) * (e.y - 4)).squareRoot() }
        #expect(error(uncorrected) > 1, "a receiver 9 dB low pushes the tag away from it")
        #expect(error(corrected) < 0.05)
    }

    @Test func tooFewScannersPutTheTagAtTheStrongest() throws {
        let hearings = [Self.hearing("near", 2, 2, tagAt: 2.5, 2.5), Self.hearing("far", 9, 9, tagAt: 2.5, 2.5)]
        let estimate = try #require(TagMultilateration().locate(hearings, txPower: Self.txPower))
        #expect(estimate.method == TagMultilateration.strongestScannerMethodName)
        #expect(estimate.x == 2 && estimate.y == 2)
        #expect(estimate.accuracyMetres >= 1)
    }

    @Test func theFloorIsTheOneMostScannersHearTheTagOn() throws {
        var hearings = Self.square(tagAt: 5, 5).prefix(3).map { $0 }
        // One scanner upstairs right above the tag hears it loudest; three below outvote it.
        hearings.append(Self.hearing("upstairs", 5, 5, floor: 2, tagAt: 5, 5, bias: 20))
        let estimate = try #require(TagMultilateration().locate(hearings, txPower: Self.txPower))
        #expect(estimate.floorID == 1)
        #expect(estimate.method == TagMultilateration.methodName)
    }

    @Test func nothingHeardIsNoPosition() {
        #expect(TagMultilateration().locate([], txPower: Self.txPower) == nil)
        var silent = Self.hearing("s", 0, 0, tagAt: 1, 1)
        silent.rssi = .nan
        #expect(TagMultilateration().locate([silent], txPower: Self.txPower) == nil)
    }
}

@Suite("Receive offset estimate")
struct ReceiveOffsetEstimateTests {
    static func sample(distance: Double, bias: Double) -> ReceiveOffsetSample {
        ReceiveOffsetSample(rssi: -59 - 20 * log10(distance) + bias, txPower: -59, distance: distance, exponent: 2)
    }

    @Test func aReceiverReadingLowGetsAPositiveOffset() throws {
        let estimate = try #require(ReceiveOffsetEstimate([2.0, 4, 7, 9].map { Self.sample(distance: $0, bias: -6) }))
        #expect(abs(estimate.offset - 6) < 1e-9)
        #expect(estimate.samples == 4)
    }

    @Test func theMedianIgnoresAReadingThroughAWall() throws {
        let samples = [2.0, 4, 7, 9].map { Self.sample(distance: $0, bias: 3) } + [Self.sample(distance: 5, bias: -25)]
        let estimate = try #require(ReceiveOffsetEstimate(samples))
        #expect(abs(estimate.offset - -3) < 1e-9)
    }

    @Test func noUsableSampleIsNoEstimate() {
        #expect(ReceiveOffsetEstimate([]) == nil)
        #expect(ReceiveOffsetEstimate([ReceiveOffsetSample(rssi: .nan, txPower: -59, distance: 1, exponent: 2)]) == nil)
    }

    @Test func anAbsurdOffsetIsClamped() throws {
        let estimate = try #require(ReceiveOffsetEstimate([Self.sample(distance: 1, bias: -60)]))
        #expect(estimate.offset == ReceiveOffsetEstimate.limit)
    }
}
