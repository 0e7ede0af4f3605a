#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Positioning
import ScanContract

/// The radio source of a scanner on ``SimulatedFloor/demo()`` (or any floor): BLE and Wi-Fi from
/// the path-loss model at the scanner's position. Its pace follows `clock`; its readings are
/// stamped by `wallClock`.
struct SimulatedRadio: RadioSource {
    let name = "simulated"
    let air: SimulatedAir
    let ble: (any BLEScanner)?
    let wifi: (any WiFiScanner)?
    /// When set, the scanner stands at the location a switch names, as the admin who walked there.
    let surveyPositions: SurveyPositions?
    let logger: Logger

    /// How long a scan session may wait for switchd to say where a surveyed location is, before
    /// it starts scanning from where the scanner was.
    static let locationTimeout: Duration = .seconds(2)

    init(
        floor: SimulatedFloor, settings: SimulationSettings, surveyPositions: SurveyPositions?, logger: Logger,
        clock: any Clock<Duration> = ContinuousClock(), wallClock: @escaping @Sendable () -> Date = Date.init
    ) {
        air = SimulatedAir(
            floor: floor, trajectory: settings.trajectory, seed: settings.seed, receiverGain: settings.receiverGain, clock: clock, wallClock: wallClock
        )
        ble = SimulatedBLEScanner(
            air: air, rates: floor.beacons.map { settings.advertisingRate ?? $0.advertisingRate } + floor.tags.map(\.advertisingRate)
        )
        wifi = SimulatedWiFiScanner(air: air, duration: settings.wifiScanDuration)
        self.surveyPositions = settings.followSurvey ? surveyPositions : nil
        self.logger = logger
    }

    /// Moves to the switch's location when following the survey; without a location, back to the
    /// trajectory. When the location cannot be fetched, the scanner stays where it was (logged).
    func prepare(for scanSwitch: ScanSwitch) async {
        guard let surveyPositions else { return }
        guard let locationID = scanSwitch.locationID else {
            await air.stand(at: nil)
            return
        }
        do {
            let point = try await surveyPositions.position(of: locationID)
            await air.stand(at: point)
            logger.debug("simulated scanner stands at the surveyed location", metadata: [
                "locationID": "\(locationID)", "x": "\(point.x)", "y": "\(point.y)",
            ])
        } catch is CancellationError {
            return
        } catch {
            logger.warning("could not fetch the surveyed location; the simulated scanner stays where it was", metadata: [
                "locationID": "\(locationID)", "error": "\(error)",
            ])
        }
    }
}
