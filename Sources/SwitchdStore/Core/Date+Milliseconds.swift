import Foundation

/// Times are stored as INTEGER milliseconds since 1970 (UTC), the precision of the v1 JSON.
extension Date {
    package init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    package var milliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    /// Now, rounded to what the database keeps, so an answer equals what a later read returns.
    package static func nowInMilliseconds() -> Date {
        Date(milliseconds: Date().milliseconds)
    }
}
