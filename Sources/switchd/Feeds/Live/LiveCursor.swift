/// Where a live stream is in each of its row feeds: the `id:` of its events and the
/// `Last-Event-ID` it resumes from, written `position:41,tagPosition:7` (a feed's entry is the
/// sequence of the last row of that feed sent, or read past). Switches have no entry: a resumed
/// stream sends each switch as it is now, as the switch stream does.
struct LiveCursor: Sendable, Equatable {
    var sequences: [LiveFeedName: Int64] = [:]

    /// The text form, feeds in a fixed order.
    var text: String {
        sequences.sorted { $0.key < $1.key }.map { "\($0.key.rawValue):\($0.value)" }.joined(separator: ",")
    }

    init(_ sequences: [LiveFeedName: Int64] = [:]) {
        self.sequences = sequences
    }

    /// Reads the text form; an empty text is an empty cursor.
    ///
    /// - Throws: 422 naming `field` when an entry is not `feed:sequence` with a known feed and a
    ///   sequence of 0 or more.
    init(parsing text: String, field: String) throws {
        for entry in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let feed = LiveFeedName(rawValue: String(parts[0])),
                  let sequence = Int64(parts[1]), sequence >= 0 else {
                throw APIError.invalidField(
                    field, "must be the id of an event of this stream (feed:sequence, comma-separated, as in position:41,tagPosition:7), got \(APIError.echo(text))"
                )
            }
            sequences[feed] = sequence
        }
    }
}
