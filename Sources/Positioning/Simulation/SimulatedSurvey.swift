#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A synthetic Wi-Fi survey of any size, for measuring how positioning scales with the map: a
/// building of `floors` square floors whose area grows with the number of samples (one sample per
/// `metresPerSample`² of floor, as a survey walked on a grid would give), an access point per
/// `squareMetresPerAccessPoint` of floor at a random spot, and readings drawn from the log-distance
/// model with shadowing and a loss per floor crossed. Readings below `sensitivity` are not heard.
/// The same seed gives the same survey and scans.
public struct SimulatedSurvey: Sendable {
    public var floors: Int
    public var metresPerSample: Double
    public var squareMetresPerAccessPoint: Double
    public var pathLoss: PathLossModel
    /// Loss per floor between radio and receiver, dB.
    public var floorLoss: Double
    public var sensitivity: Double

    public init(
        floors: Int = 3, metresPerSample: Double = 2, squareMetresPerAccessPoint: Double = 200,
        pathLoss: PathLossModel = PathLossModel(powerAt1m: -40, exponent: 3.5, shadowingSigma: 4),
        floorLoss: Double = 15, sensitivity: Double = -95
    ) {
        self.floors = max(floors, 1)
        self.metresPerSample = metresPerSample
        self.squareMetresPerAccessPoint = squareMetresPerAccessPoint
        self.pathLoss = pathLoss
        self.floorLoss = floorLoss
        self.sensitivity = sensitivity
    }

    /// A drawn building: its access points, and a way to scan anywhere in it.
    public struct Site: Sendable {
        public let survey: SimulatedSurvey
        /// Side of each square floor, metres.
        public let side: Double
        /// Access points as (floor, position); a radio's key is its position in this list.
        public let accessPoints: [(floor: Int, position: PlanPoint)]

        /// Readings (dBm by access point) of one scan at `position` on `floor`.
        public func scan(at position: PlanPoint, floor: Int, using generator: inout some RandomNumberGenerator) -> [Int: Double] {
            let model = survey.pathLoss
            // Beyond this even a reading 4 σ above the mean is not heard; such radios are skipped.
            let hearable = survey.sensitivity - 4 * model.shadowingSigma
            var readings: [Int: Double] = [:]
            for (key, radio) in accessPoints.enumerated() {
                let loss = Double(abs(radio.floor - floor)) * survey.floorLoss
                let distance = radio.position.distance(to: position)
                let mean = model.meanRSSI(atDistance: distance) - loss
                guard mean >= hearable else { continue }
                let rssi = (mean + model.shadowingSigma * generator.nextGaussian()).rounded()
                if rssi >= survey.sensitivity { readings[key] = rssi }
            }
            return readings
        }

        /// A uniformly random floor and spot on it.
        public func randomPlace(using generator: inout some RandomNumberGenerator) -> (floor: Int, position: PlanPoint) {
            (Int.random(in: 0..<survey.floors, using: &generator),
             PlanPoint(x: Double.random(in: 0..<side, using: &generator), y: Double.random(in: 0..<side, using: &generator)))
        }
    }

    /// A building sized for `samples` survey samples.
    public func site(forSamples samples: Int, using generator: inout some RandomNumberGenerator) -> Site {
        let floorArea = Double(max(samples, 1)) / Double(floors) * metresPerSample * metresPerSample
        let perFloor = max(Int((floorArea / squareMetresPerAccessPoint).rounded()), 1)
        let side = floorArea.squareRoot()
        var accessPoints: [(floor: Int, position: PlanPoint)] = []
        for floor in 0..<floors {
            for _ in 0..<perFloor {
                accessPoints.append((floor, PlanPoint(
                    x: Double.random(in: 0..<side, using: &generator), y: Double.random(in: 0..<side, using: &generator))))
            }
        }
        return Site(survey: self, side: side, accessPoints: accessPoints)
    }

    /// `count` survey samples at random places of `site`, each its own location.
    public func samples(_ count: Int, of site: Site, using generator: inout some RandomNumberGenerator) -> [FingerprintRecord<Int>] {
        (0..<count).map { _ in
            let place = site.randomPlace(using: &generator)
            return FingerprintRecord(
                building: "simulated", floorID: Int64(place.floor), x: place.position.x, y: place.position.y,
                readings: site.scan(at: place.position, floor: place.floor, using: &generator))
        }
    }
}
