#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MeasurementBatch {
    /// The batch in `json` when it is written the plain way scanners write it, read in one pass
    /// over the bytes; nil when it is not, and then `JSONCoding.decoder()` must decode it, for the
    /// batch or the error a client is answered with. ``BatchJSONReader`` says what plain is.
    ///
    /// Whenever this returns a batch, `JSONCoding.decoder()` decodes the same bytes to an equal one
    /// (a reading without `id` gets a fresh one on either path): every error answer stays the
    /// decoder's own, because this path never refuses anything, it only steps aside.
    public static func readPlainJSON(_ json: UnsafeRawBufferPointer) -> MeasurementBatch? {
        var reader = BatchJSONReader(json.bindMemory(to: UInt8.self))
        do {
            return try reader.batch()
        } catch {
            return nil
        }
    }
}

/// A reader of the one JSON shape switchd takes most: a ``MeasurementBatch`` as scannerd writes
/// it. Foundation's `JSONDecoder` builds a tree of the whole body and goes through keyed
/// containers field by field; on a 500-reading batch that was the largest part of ingest.
///
/// "Plain" JSON here is: objects holding only the contract's keys, each once; strings without
/// escapes or control characters (UTF-8 is checked); integers as `-?[1-9][0-9]*` or `0`, at most 18
/// digits; no `null`; any JSON whitespace. Everything else (and every value a field cannot take:
/// a bad UUID, MAC, scanner ID, date, kind, or a major above 65535) throws ``StepAside``, so that
/// the decoder reads it and says what is wrong, exactly as before this reader existed.
struct BatchJSONReader {
    /// Not a verdict on the input: only that this reader leaves it to `JSONDecoder`.
    struct StepAside: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func batch() throws(StepAside) -> MeasurementBatch {
        var batchID: UUID?
        var scannerID: ScannerID?
        var switchRevision: Int?
        var measurements: [Measurement]?
        var scansCompleted: Int?
        try object { (reader: inout BatchJSONReader, key) throws(StepAside) in
            if key.is("batchID"), batchID == nil {
                batchID = try reader.uuid()
            } else if key.is("scannerID"), scannerID == nil {
                guard let id = try? ScannerID(reader.string().text()) else { throw StepAside() }
                scannerID = id
            } else if key.is("switchRevision"), switchRevision == nil {
                switchRevision = try reader.integer()
            } else if key.is("measurements"), measurements == nil {
                measurements = try reader.measurements()
            } else if key.is("scansCompleted"), scansCompleted == nil {
                scansCompleted = try reader.integer()
            } else {
                throw StepAside()
            }
        }
        skipWhitespace()
        guard index == bytes.count, let batchID, let scannerID, let switchRevision, let measurements else { throw StepAside() }
        return MeasurementBatch(
            batchID: batchID, scannerID: scannerID, switchRevision: switchRevision, measurements: measurements, scansCompleted: scansCompleted
        )
    }

    private mutating func measurements() throws(StepAside) -> [Measurement] {
        try expect(UInt8(ascii: "["))
        var measurements: [Measurement] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return measurements
        }
        // A reading takes 150 bytes or more of JSON; reserving by that avoids regrowing the array.
        measurements.reserveCapacity((bytes.count - index) / 150 + 1)
        while true {
            measurements.append(try measurement())
            skipWhitespace()
            guard let next = peek() else { throw StepAside() }
            index += 1
            if next == UInt8(ascii: "]") { return measurements }
            guard next == UInt8(ascii: ",") else { throw StepAside() }
        }
    }

    /// One reading, decided as `Measurement.init(from:)` decides it.
    private mutating func measurement() throws(StepAside) -> Measurement {
        var fields = ReadingFields()
        try object { (reader: inout BatchJSONReader, key) throws(StepAside) in
            try reader.readField(key, into: &fields)
        }
        guard let time = fields.time, let rssi = fields.rssi else { throw StepAside() }
        let kind: RadioKind
        if let given = fields.kind {
            kind = given
        } else if fields.bssid != nil {
            kind = .wifi
        } else if fields.uuid != nil {
            kind = .ble
        } else {
            throw StepAside()
        }
        let observation: Observation
        switch kind {
        case .wifi:
            guard let bssid = fields.bssid, let frequencyMHz = fields.frequencyMHz else { throw StepAside() }
            observation = .wifi(WiFiObservation(bssid: bssid, ssid: fields.ssid ?? "", frequencyMHz: frequencyMHz))
        case .ble:
            guard let address = fields.address, let uuid = fields.uuid, let major = fields.major.flatMap(UInt16.init(exactly:)),
                  let minor = fields.minor.flatMap(UInt16.init(exactly:)), let txPower = fields.txPower else { throw StepAside() }
            observation = .ble(BLEObservation(address: address, beacon: BeaconID(uuid: uuid, major: major, minor: minor), txPower: txPower))
        }
        let id = fields.id ?? .timeOrdered(at: time, random: UUID().uuid)
        return Measurement(id: id, time: time, rssi: rssi, scan: fields.scan ?? 0, observation: observation)
    }

    /// A reading's fields as read so far; a key seen twice steps aside.
    private struct ReadingFields {
        var id: UUID?
        var kind: RadioKind?
        var time: Date?
        var rssi: Int?
        var scan: Int?
        var bssid: MACAddress?
        var ssid: String?
        var frequencyMHz: Int?
        var address: MACAddress?
        var uuid: UUID?
        var major: Int?
        var minor: Int?
        var txPower: Int?
    }

    private mutating func readField(_ key: Slice, into fields: inout ReadingFields) throws(StepAside) {
        switch key.count {
        case 2 where key.is("id"): try Self.unread(fields.id); fields.id = try uuid()
        case 4 where key.is("kind"): try Self.unread(fields.kind); fields.kind = try kind()
        case 4 where key.is("time"): try Self.unread(fields.time); fields.time = try time()
        case 4 where key.is("rssi"): try Self.unread(fields.rssi); fields.rssi = try integer()
        case 4 where key.is("scan"): try Self.unread(fields.scan); fields.scan = try integer()
        case 4 where key.is("ssid"): try Self.unread(fields.ssid); fields.ssid = try string().text()
        case 4 where key.is("uuid"): try Self.unread(fields.uuid); fields.uuid = try uuid()
        case 5 where key.is("bssid"): try Self.unread(fields.bssid); fields.bssid = try mac()
        case 5 where key.is("major"): try Self.unread(fields.major); fields.major = try integer()
        case 5 where key.is("minor"): try Self.unread(fields.minor); fields.minor = try integer()
        case 7 where key.is("address"): try Self.unread(fields.address); fields.address = try mac()
        case 7 where key.is("txPower"): try Self.unread(fields.txPower); fields.txPower = try integer()
        case 12 where key.is("frequencyMHz"): try Self.unread(fields.frequencyMHz); fields.frequencyMHz = try integer()
        default: throw StepAside()
        }
    }

    /// Steps aside for a key given twice (which of the two `JSONDecoder` keeps is its business).
    private static func unread(_ field: (some Any)?) throws(StepAside) {
        guard field == nil else { throw StepAside() }
    }

    // MARK: Values

    private mutating func kind() throws(StepAside) -> RadioKind {
        let text = try string()
        if text.is("wifi") { return .wifi }
        if text.is("ble") { return .ble }
        throw StepAside()
    }

    private mutating func time() throws(StepAside) -> Date {
        let text = try string()
        guard let date = RFC3339.parse(bytes: UnsafeBufferPointer(rebasing: bytes[text.range])) else { throw StepAside() }
        return date
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in either case, which is what `UUID(uuidString:)` takes.
    private mutating func uuid() throws(StepAside) -> UUID {
        let text = try string()
        guard text.count == 36 else { throw StepAside() }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var offset = text.range.lowerBound
        for octet in 0..<16 {
            if octet == 4 || octet == 6 || octet == 8 || octet == 10 {
                guard bytes[offset] == UInt8(ascii: "-") else { throw StepAside() }
                offset += 1
            }
            let value = UInt64(try hexOctet(at: offset))
            if octet < 8 { high = high << 8 | value } else { low = low << 8 | value }
            offset += 2
        }
        func octet(_ word: UInt64, _ index: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        return UUID(uuid: (
            octet(high, 0), octet(high, 1), octet(high, 2), octet(high, 3), octet(high, 4), octet(high, 5), octet(high, 6), octet(high, 7),
            octet(low, 0), octet(low, 1), octet(low, 2), octet(low, 3), octet(low, 4), octet(low, 5), octet(low, 6), octet(low, 7)
        ))
    }

    /// `aa:bb:cc:dd:ee:ff` or `aa-bb-cc-dd-ee-ff`, in either case: the forms `MACAddress.init(_:)`
    /// takes without surprise (it also reads signed octets such as `+f`, which step aside here).
    private mutating func mac() throws(StepAside) -> MACAddress {
        let text = try string()
        guard text.count == 17 else { throw StepAside() }
        let start = text.range.lowerBound
        let separator = bytes[start + 2]
        guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: "-") else { throw StepAside() }
        var value: UInt64 = 0
        for octet in 0..<6 {
            let offset = start + octet * 3
            if octet > 0, bytes[offset - 1] != separator { throw StepAside() }
            value = value << 8 | UInt64(try hexOctet(at: offset))
        }
        return MACAddress(rawValue: value)
    }

    private func hexOctet(at offset: Int) throws(StepAside) -> UInt8 {
        try hexDigit(bytes[offset]) << 4 | hexDigit(bytes[offset + 1])
    }

    private func hexDigit(_ byte: UInt8) throws(StepAside) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: throw StepAside()
        }
    }

    /// `0` or `-?[1-9][0-9]{0,17}`, followed by something that cannot continue a number.
    private mutating func integer() throws(StepAside) -> Int {
        skipWhitespace()
        let negative = peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            // 18 digits always fit an Int; a longer number is the decoder's to judge.
            guard index - start < 18 else { throw StepAside() }
            value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard digits >= 1, digits == 1 || bytes[start] != UInt8(ascii: "0"), !(negative && value == 0) else { throw StepAside() }
        if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { throw StepAside() }
        return negative ? -value : value
    }

    /// A string's bytes (without quotes), when it holds no escape and no control character.
    private mutating func string() throws(StepAside) -> Slice {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return Slice(bytes: bytes, range: start..<(index - 1), ascii: ascii)
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { throw StepAside() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw StepAside()
    }

    // MARK: Structure

    /// Calls `field` with each key of an object, the reader placed at the key's value.
    private mutating func object(_ field: (inout BatchJSONReader, Slice) throws(StepAside) -> Void) throws(StepAside) {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try field(&self, key)
            skipWhitespace()
            guard let next = peek() else { throw StepAside() }
            index += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw StepAside() }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(StepAside) {
        skipWhitespace()
        guard peek() == byte else { throw StepAside() }
        index += 1
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    /// A string's bytes within the body.
    struct Slice {
        let bytes: UnsafeBufferPointer<UInt8>
        let range: Range<Int>
        /// True when every byte is below 0x80 (no UTF-8 to check).
        let ascii: Bool

        var count: Int { range.count }

        func `is`(_ literal: StaticString) -> Bool {
            guard literal.utf8CodeUnitCount == range.count else { return false }
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            return expected.elementsEqual(bytes[range])
        }

        /// The string, when its bytes are valid UTF-8.
        func text() throws(StepAside) -> String {
            let view = UnsafeBufferPointer(rebasing: bytes[range])
            if ascii { return String(decoding: view, as: UTF8.self) }
            guard let text = String(validating: view, as: UTF8.self) else { throw StepAside() }
            return text
        }
    }
}
