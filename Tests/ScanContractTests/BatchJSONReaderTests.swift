import Foundation
@testable import ScanContract
import Testing

/// `MeasurementBatch.readPlainJSON` against `JSONCoding.decoder()`, the decoder it stands in for:
/// whatever it reads, the decoder reads the same; whatever the decoder refuses, it leaves alone
/// (so every error answer is still the decoder's).
@Suite("Batch JSON reader")
struct BatchJSONReaderTests {
    let decoder = JSONCoding.decoder()

    /// The reader's batch, or nil when it stepped aside.
    func read(_ json: String) -> MeasurementBatch? {
        read(Data(json.utf8))
    }

    func read(_ data: Data) -> MeasurementBatch? {
        data.withUnsafeBytes { MeasurementBatch.readPlainJSON($0) }
    }

    /// What the decoder makes of `data`: the batch, or nil when it throws.
    func decode(_ data: Data) -> MeasurementBatch? {
        try? decoder.decode(MeasurementBatch.self, from: data)
    }

    /// The invariant, for any bytes: a batch read is the batch the decoder decodes.
    func expectAgreement(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let fast = read(data) else { return }
        #expect(fast == decode(data), "reader and decoder differ on \(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    static let batchID = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    static let wifi = #"{"bssid":"aa:bb:cc:dd:ee:0f","frequencyMHz":2437,"id":"0190F3A2-0000-7000-8000-000000000001","kind":"wifi","rssi":-61,"scan":3,"ssid":"lab","time":"2026-11-22T06:50:00.125Z"}"#
    static let ble = #"{"address":"c0:ff:ee:00:00:01","id":"0190F3A2-0000-7000-8000-000000000002","kind":"ble","major":1,"minor":65535,"rssi":-70,"scan":0,"time":"2026-11-22T06:50:00Z","txPower":-59,"uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E"}"#

    static func batch(_ measurements: String..., extra: String = "") -> String {
        #"{"batchID":"\#(batchID)","measurements":[\#(measurements.joined(separator: ","))],"scannerID":"pi-1","switchRevision":2\#(extra)}"#
    }

    @Test func readsWhatTheEncoderWritesExactlyAsTheDecoderDoes() throws {
        var generator = SplitMix(seed: 17)
        let start = Date(timeIntervalSince1970: 1_795_330_200)
        let measurements = (0..<200).map { index -> Measurement in
            let time = start.addingTimeInterval(Double(generator.next() % 10_000_000) / 1000)
            let rssi = -Int(generator.next() % 128)
            if index % 2 == 0 {
                let ssid = ["lab", "", "ü-net", "Café ☕", "x y z"][index / 2 % 5]
                let wifi = WiFiObservation(bssid: MACAddress(rawValue: generator.next()), ssid: ssid, frequencyMHz: 2400 + Int(generator.next() % 4000))
                return Measurement(time: time, rssi: rssi, scan: index, observation: .wifi(wifi))
            }
            let beacon = BeaconID(uuid: UUID(), major: UInt16(truncatingIfNeeded: generator.next()), minor: UInt16(truncatingIfNeeded: generator.next()))
            let ble = BLEObservation(address: MACAddress(rawValue: generator.next()), beacon: beacon, txPower: -Int(generator.next() % 100))
            return Measurement(time: time, rssi: rssi, scan: index, observation: .ble(ble))
        }
        for scansCompleted in [nil, 0, 7] as [Int?] {
            let batch = MeasurementBatch(batchID: UUID(), scannerID: try ScannerID("bench-1"), switchRevision: 41, measurements: measurements, scansCompleted: scansCompleted)
            let data = try JSONCoding.encoder().encode(batch)
            // Times go through the wire at millisecond precision, so the batch read is compared
            // with the decoder's, not with the one encoded.
            let fast = try #require(read(data))
            #expect(fast == decode(data))
            #expect(fast.measurements.map(\.id) == batch.measurements.map(\.id))
        }
    }

    @Test(arguments: [
        // Keys in any order, whitespace anywhere JSON allows it.
        " \n{ \"switchRevision\" : 2 ,\t\"scannerID\":\"pi-1\",\r\n\"measurements\" : [ \(wifi) , \(ble) ] , \"batchID\":\"\(batchID)\" } \n",
        // Lower-case UUIDs, upper-case and dashed MACs.
        batch(
            wifi.replacingOccurrences(of: "aa:bb:cc:dd:ee:0f", with: "AA-BB-CC-DD-EE-0F"),
            ble.replacingOccurrences(of: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", with: "f7826da6-4fa2-4e98-8024-bc5b71e0893e")
        ),
        // `kind` left out where the fields make it plain; `scan` and `ssid` left out.
        batch(#"{"bssid":"aa:bb:cc:dd:ee:0f","frequencyMHz":2437,"id":"0190F3A2-0000-7000-8000-000000000001","rssi":-61,"time":"2026-11-22T06:50:00.125Z"}"#),
        batch(#"{"address":"c0:ff:ee:00:00:01","id":"0190F3A2-0000-7000-8000-000000000002","major":0,"minor":0,"rssi":0,"time":"2026-11-22T06:50:00+02:00","txPower":20,"uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E"}"#),
        // Fields of the other kind are ignored by the decoder, and so are they here.
        batch(#"{"bssid":"aa:bb:cc:dd:ee:0f","frequencyMHz":2437,"id":"0190F3A2-0000-7000-8000-000000000001","kind":"wifi","major":3,"rssi":-61,"time":"2026-11-22T06:50:00Z"}"#),
        // An empty batch is read (validation refuses it later, on either path), and so is scansCompleted.
        batch(),
        batch(wifi, extra: #","scansCompleted":12"#),
        // Values validation refuses later, but JSON decoding takes.
        batch(wifi.replacingOccurrences(of: "-61", with: "-999999999999999999")),
        batch(wifi.replacingOccurrences(of: "2437", with: "0")),
    ])
    func readsPlainBatchesAsTheDecoderDoes(json: String) {
        let data = Data(json.utf8)
        #expect(decode(data) != nil)
        #expect(read(data) != nil)
        expectAgreement(data)
    }

    @Test func aReadingWithoutIDGetsAFreshOneOnBothPaths() throws {
        let json = Self.batch(#"{"bssid":"aa:bb:cc:dd:ee:0f","frequencyMHz":2437,"rssi":-61,"time":"2026-11-22T06:50:00.125Z"}"#)
        let fast = try #require(read(json))
        let slow = try #require(decode(Data(json.utf8)))
        #expect(fast.measurements[0].id != slow.measurements[0].id)
        var withSlowID = fast
        withSlowID.measurements[0].id = slow.measurements[0].id
        #expect(withSlowID == slow)
        // Time-ordered, as the decoder makes it: its first 48 bits are the reading's millisecond.
        #expect(fast.measurements[0].id.uuidString.prefix(13) == slow.measurements[0].id.uuidString.prefix(13))
    }

    /// Hostile or merely unusual input: the reader steps aside, and the decoder answers (a batch
    /// or the error a client is told, as it always did).
    @Test(arguments: [
        // Wrong types.
        batch(wifi.replacingOccurrences(of: "-61", with: #""loud""#)),
        batch(wifi.replacingOccurrences(of: "2437", with: "2437.0")),
        batch(wifi.replacingOccurrences(of: "2437", with: "2.437e3")),
        batch(wifi.replacingOccurrences(of: "2437", with: "true")),
        batch(wifi.replacingOccurrences(of: #""ssid":"lab""#, with: #""ssid":7"#)),
        batch(wifi).replacingOccurrences(of: #""switchRevision":2"#, with: #""switchRevision":"2""#),
        batch(wifi).replacingOccurrences(of: #""measurements":["#, with: #""measurements":{"a":"#).replacingOccurrences(of: "],", with: "},"),
        batch(#"[]"#),
        // Huge numbers, a negative zero, leading zeros.
        batch(wifi.replacingOccurrences(of: "-61", with: "-9999999999999999999")),
        batch(wifi.replacingOccurrences(of: "-61", with: "123456789012345678901234567890")),
        batch(wifi).replacingOccurrences(of: #""switchRevision":2"#, with: #""switchRevision":9223372036854775808"#),
        batch(wifi.replacingOccurrences(of: "-61", with: "-0")),
        batch(wifi.replacingOccurrences(of: "2437", with: "02437")),
        batch(ble.replacingOccurrences(of: #""major":1"#, with: #""major":70000"#)),
        batch(ble.replacingOccurrences(of: #""major":1"#, with: #""major":-1"#)),
        // Bad UUIDs.
        batch(wifi).replacingOccurrences(of: batchID, with: "nope"),
        batch(wifi).replacingOccurrences(of: batchID, with: "6F9619FF8B86-D011-B42D-00C04FC964FF0"),
        batch(wifi).replacingOccurrences(of: batchID, with: "6F9619FF-8B86-D011-B42D-00C04FC964FG"),
        batch(wifi).replacingOccurrences(of: batchID, with: "{6F9619FF-8B86-D011-B42D-00C04FC964FF}"),
        batch(ble.replacingOccurrences(of: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", with: "F7826DA6-4FA2-4E98-8024-BC5B71E0893")),
        // Bad MACs, and forms the text initialiser takes that this reader leaves to it.
        batch(wifi.replacingOccurrences(of: "aa:bb:cc:dd:ee:0f", with: "zz:bb:cc:dd:ee:0f")),
        batch(wifi.replacingOccurrences(of: "aa:bb:cc:dd:ee:0f", with: "aa:bb:cc:dd:ee")),
        batch(wifi.replacingOccurrences(of: "aa:bb:cc:dd:ee:0f", with: "aa:bb-cc:dd:ee:0f")),
        batch(wifi.replacingOccurrences(of: "aa:bb:cc:dd:ee:0f", with: "aa:bb:cc:dd:ee:+f")),
        batch(wifi.replacingOccurrences(of: "aa:bb:cc:dd:ee:0f", with: "a:bb:cc:dd:ee:0f0")),
        // Bad scanner IDs, dates and kinds.
        batch(wifi).replacingOccurrences(of: #""pi-1""#, with: #""pi 1""#),
        batch(wifi).replacingOccurrences(of: #""pi-1""#, with: #""""#),
        batch(wifi.replacingOccurrences(of: "2026-11-22T06:50:00.125Z", with: "yesterday")),
        batch(wifi.replacingOccurrences(of: "2026-11-22T06:50:00.125Z", with: "2026-13-22T06:50:00Z")),
        batch(wifi.replacingOccurrences(of: #""kind":"wifi""#, with: #""kind":"lte""#)),
        batch(wifi.replacingOccurrences(of: #""kind":"wifi""#, with: #""kind":"ble""#)),
        // Duplicate keys, unknown keys, nulls, missing keys.
        batch(wifi.replacingOccurrences(of: #""rssi":-61"#, with: #""rssi":-61,"rssi":-62"#)),
        batch(wifi, extra: #","switchRevision":3"#),
        batch(wifi, extra: #","note":"hello""#),
        batch(wifi.replacingOccurrences(of: #""scan":3"#, with: #""scan":3,"extra":{"nested":[1,2]}"#)),
        batch(wifi.replacingOccurrences(of: #""ssid":"lab""#, with: #""ssid":null"#)),
        batch(wifi.replacingOccurrences(of: #""id":"0190F3A2-0000-7000-8000-000000000001""#, with: #""id":null"#)),
        batch(wifi, extra: #","scansCompleted":null"#),
        batch(wifi.replacingOccurrences(of: #""rssi":-61,"#, with: "")),
        batch(wifi.replacingOccurrences(of: #""frequencyMHz":2437,"#, with: "")),
        batch(ble.replacingOccurrences(of: #""txPower":-59,"#, with: "")),
        batch(#"{"rssi":-50,"time":"2026-11-22T06:50:00Z"}"#),
        batch(wifi).replacingOccurrences(of: #","switchRevision":2"#, with: ""),
        // Escapes, control characters, invalid UTF-8 are left to the decoder.
        batch(wifi.replacingOccurrences(of: #""ssid":"lab""#, with: #""ssid":"l\"ab""#)),
        batch(wifi.replacingOccurrences(of: #""ssid":"lab""#, with: #""ssid":"l\u00e4b""#)),
        batch(wifi.replacingOccurrences(of: #""rssi""#, with: #""rs\u0073i""#)),
        batch(wifi.replacingOccurrences(of: #""ssid":"lab""#, with: "\"ssid\":\"l\tb\"")),
        // Not JSON at all, or more than one value.
        "", "{", "not json", #"{"batchID": }"#, batch(wifi) + "{}", batch(wifi) + ",", "[" + batch(wifi) + "]",
        batch(wifi + ","), batch(wifi).replacingOccurrences(of: ",", with: ",,"),
    ])
    func stepsAsideForAnythingElse(json: String) {
        #expect(read(json) == nil)
        expectAgreement(Data(json.utf8))
    }

    @Test func stepsAsideForInvalidUTF8() {
        var data = Data(Self.batch(Self.wifi).utf8)
        let ssid = data.range(of: Data(#""lab""#.utf8))!
        data[ssid.lowerBound + 1] = 0xFF
        #expect(read(data) == nil)
    }

    @Test func everyTruncatedPrefixIsLeftToTheDecoder() {
        let data = Data(Self.batch(Self.wifi, Self.ble).utf8)
        for length in 0..<data.count {
            let prefix = data.prefix(length)
            #expect(read(prefix) == nil, "prefix of \(length) bytes")
            #expect(decode(prefix) == nil)
        }
    }

    /// Seeded byte mutations of a real batch (replaced, dropped and doubled bytes): whenever the
    /// reader takes the result, the decoder takes it too, as the same batch.
    @Test func mutatedBatchesNeverReadOtherwiseThanTheDecoderReadsThem() {
        let original = Array(Self.batch(Self.wifi, Self.ble, extra: #","scansCompleted":4"#).utf8)
        let alphabet = Array(#"0123456789abcdefABCDEF-:.,{}[]" eE+\tnul"#.utf8) + [0x00, 0x7F, 0xC3, 0xFF]
        var generator = SplitMix(seed: 4242)
        var readCount = 0
        for _ in 0..<4_000 {
            var bytes = original
            for _ in 0...(generator.next() % 3) {
                let at = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[at] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(bytes[at], at: at)
                }
            }
            let data = Data(bytes)
            if read(data) != nil { readCount += 1 }
            expectAgreement(data)
        }
        // Many mutations (a digit for a digit, a hex letter's case) leave a plain batch.
        #expect(readCount > 100)
    }
}

/// A small seeded generator (SplitMix64), so that the mutations are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
