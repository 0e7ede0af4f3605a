#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 3339 timestamps: a strict reader of `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, and the
/// writer of the one form floorscan sends, UTC with milliseconds.
///
/// Hand-written because every uploaded reading carries one and Foundation's ISO 8601 parser was a
/// large share of switchd's ingest time; this one walks the UTF-8 bytes once and allocates nothing.
/// Returns nil for anything that is not such a timestamp (including out-of-range fields such as
/// month 13 or minute 60; a leap second `:60` is read as `:59.999…`).
enum RFC3339 {
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
                index += 1
            }
            return value
        }
        func expect(_ options: UInt8...) -> Bool {
            guard index < bytes.count, options.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
              let day = digits(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")),
              let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
              let second = digits(2) else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second <= 60 else { return nil }

        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offsetSeconds = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHours = digits(2), expect(UInt8(ascii: ":")), let offsetMinutes = digits(2),
                  offsetHours < 24, offsetMinutes < 60 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let wholeSeconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        let leap = second == 60 ? 0.999_999 : 0
        return Date(timeIntervalSince1970: Double(wholeSeconds) + max(fraction, leap))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `2026-11-22T06:50:00.123Z`: UTC, truncated to the millisecond. A time that is a whole
    /// millisecond keeps it (Foundation's formatter can print .606 as .605, truncating the binary
    /// fraction); hand-written too because the spool writes hundreds a second.
    static func format(_ date: Date) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(24)
        append(date, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// ``format(_:)``'s text appended to `bytes` as UTF-8, without making a string: scannerd's
    /// spool writes one with every reading.
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        let sinceReference = (date.timeIntervalSinceReferenceDate * 1000 + representationSlack).rounded(.down)
        let milliseconds = Int64(sinceReference) + referenceDateMilliseconds
        let days = milliseconds >= 0 ? milliseconds / millisecondsPerDay : (milliseconds - millisecondsPerDay + 1) / millisecondsPerDay
        let ofDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = civilDate(daysSince1970: days)
        appendPadded(year, 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day, 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(ofDay / 3_600_000, 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(ofDay / 60_000 % 60, 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(ofDay / 1000 % 60, 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendPadded(ofDay % 1000, 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    private static let millisecondsPerDay: Int64 = 86_400_000
    /// 2001-01-01, where `Date` counts from, in milliseconds since 1970.
    private static let referenceDateMilliseconds: Int64 = 978_307_200_000
    /// A microsecond, in milliseconds: absorbs the binary representation error of times that are
    /// whole milliseconds, which would otherwise truncate to the millisecond before.
    private static let representationSlack = 0.001

    /// Year, month, day of the proleptic Gregorian calendar (H. Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` in decimal, zeros in front up to `width` digits. A negative value (a year before
    /// 1 BC) is padded as its `String` form, sign and all, as it always was.
    private static func appendPadded(_ value: Int64, _ width: Int, to bytes: inout [UInt8]) {
        guard value >= 0 else {
            let digits = String(value).utf8
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
            bytes.append(contentsOf: digits)
            return
        }
        var divisor: Int64 = 1
        var count = 1
        while divisor <= value / 10 {
            divisor *= 10
            count += 1
        }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - count)))
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
