import Foundation
import Positioning

/// A `tag_track` row: a tag's smoothing track (``TagTrack/State``) as JSON, read and written the
/// same way on either database. JSON keeps every finite figure exactly (each is written in the
/// fewest digits that read back as the same number); the filter takes no non-finite input, and
/// should one arise anyway it is written as a string rather than lost.
enum TagTrackRecord {
    private static let nonFinite = (positive: "inf", negative: "-inf", nan: "nan")

    /// The tag's stored track; nil when it has none (never located, or located before tracks
    /// were stored), or when its state cannot be read (written by another version of switchd):
    /// a track is only smoothing, so the tag then starts a new one instead of being refused a
    /// position at every window.
    static func state(of tagID: Int64, in sql: any StoreTransaction) throws -> TagTrack.State? {
        guard let text = try sql.row("SELECT state FROM tag_track WHERE tag_id = ?", [.integer(tagID)])?.string("state") else {
            return nil
        }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: nonFinite.positive, negativeInfinity: nonFinite.negative, nan: nonFinite.nan
        )
        return try? decoder.decode(TagTrack.State.self, from: Data(text.utf8))
    }

    /// Stores `state` as the tag's track, replacing the one it had.
    static func save(_ state: TagTrack.State, of tagID: Int64, in sql: any StoreTransaction) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: nonFinite.positive, negativeInfinity: nonFinite.negative, nan: nonFinite.nan
        )
        try sql.execute(
            "INSERT INTO tag_track (tag_id, state) VALUES (?, ?) ON CONFLICT (tag_id) DO UPDATE SET state = excluded.state",
            [.integer(tagID), .text(String(decoding: try encoder.encode(state), as: UTF8.self))]
        )
    }
}
