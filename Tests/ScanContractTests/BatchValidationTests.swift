import Foundation
@testable import ScanContract
import Testing

@Suite("Batch validation")
struct BatchValidationTests {
    let time = Date(timeIntervalSince1970: 1_795_330_200)

    func wifi(rssi: Int = -50, frequency: Int = 2412, ssid: String = "lab") -> Measurement {
        Measurement(time: time, rssi: rssi, observation: .wifi(.init(bssid: BSSID(rawValue: 1), ssid: ssid, frequencyMHz: frequency)))
    }

    func batch(_ measurements: [Measurement], revision: Int = 2) -> MeasurementBatch {
        MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: revision, measurements: measurements)
    }

    @Test func aGoodBatchPasses() throws {
        try batch([wifi(), wifi(rssi: -127), wifi(rssi: 20)]).validate()
    }

    @Test(arguments: [
        (-128, 2412, "lab", "measurements[1].rssi"),
        (21, 2412, "lab", "measurements[1].rssi"),
        (-50, 100, "lab", "measurements[1].frequencyMHz"),
        (-50, 2412, String(repeating: "x", count: 33), "measurements[1].ssid"),
    ])
    func outOfRangeValuesNameTheirField(rssi: Int, frequency: Int, ssid: String, field: String) {
        #expect(throws: ValidationError.self) { try batch([wifi(), wifi(rssi: rssi, frequency: frequency, ssid: ssid)]).validate() }
        do throws(ValidationError) {
            try batch([wifi(), wifi(rssi: rssi, frequency: frequency, ssid: ssid)]).validate()
        } catch {
            #expect(error.field == field)
        }
    }

    @Test func emptyBatchesAndBadRevisionsAreRefused() {
        #expect(throws: ValidationError(field: "measurements", reason: "must hold at least one measurement")) { try batch([]).validate() }
        #expect(throws: ValidationError.self) { try batch([wifi()], revision: 0).validate() }
    }

    @Test func completedScansComeFromTheBatchOrItsReadings() throws {
        var readings = [wifi(), wifi(), wifi()]
        readings[1].scan = 4
        var batch = batch(readings)
        #expect(batch.completedScans == 5, "without a count, the highest scan index counts as done")
        batch.scansCompleted = 4
        #expect(batch.completedScans == 4)
        try batch.validate()
        batch.scansCompleted = -1
        #expect(throws: ValidationError.self) { try batch.validate() }
        let decoded = try JSONCoding.decoder().decode(MeasurementBatch.self, from: JSONCoding.encoder().encode(self.batch([wifi()])))
        #expect(decoded.scansCompleted == nil)
    }

    @Test func repeatedMeasurementIDsAreRefused() {
        let one = wifi()
        do throws(ValidationError) {
            try batch([one, one]).validate()
            Issue.record("a repeated id passed")
        } catch {
            #expect(error.field == "measurements[1].id")
        }
    }

    @Test func datesOutsideTheCenturyAreRefused() {
        var old = wifi()
        old.time = Date(timeIntervalSince1970: 0)
        #expect(throws: ValidationError.self) { try batch([old]).validate() }
    }
}
