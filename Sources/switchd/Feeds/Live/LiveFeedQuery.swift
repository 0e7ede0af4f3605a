import Hummingbird
import ScanContract

/// What one `GET /v1/stream` follows: which feeds, narrowed to which scanners, tags and floor,
/// and where it resumes.
struct LiveFeedQuery: Sendable, Equatable {
    var feeds: Set<LiveFeedName>
    /// Positions, readings and switches of these scanners only; nil for every scanner (the
    /// switch feed needs them named).
    var scannerIDs: Set<ScannerID>?
    /// Positions of these tags only; nil for every tag.
    var tagIDs: Set<Int64>?
    /// Positions (scanners' and tags') on this floor only; nil for every floor. Readings and
    /// switches belong to no floor and are not narrowed by it.
    var floor: Int64?
    /// `Last-Event-ID`, else `?after=`; nil for "from now".
    var resume: LiveCursor?

    /// At most this many scanners or tags named in one stream.
    static let maxNamed = 1000

    /// Reads the query string and `Last-Event-ID`.
    ///
    /// - Throws: 422 naming the parameter: an unknown feed, a bad scanner ID or tag ID, too many
    ///   of them, the switch feed without `scannerIDs`, or a resume point that is no event ID.
    init(_ request: Request) throws {
        let query = QueryParameters(request)
        if let text = query.text("feeds") {
            var feeds: Set<LiveFeedName> = []
            for name in Self.list(text) {
                guard let feed = LiveFeedName(rawValue: name) else {
                    throw APIError.invalidField(
                        "feeds", "names an unknown feed \(APIError.echo(name)); feeds are \(LiveFeedName.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                feeds.insert(feed)
            }
            guard !feeds.isEmpty else { throw APIError.invalidField("feeds", "must name at least one feed") }
            self.feeds = feeds
        } else {
            feeds = Set(LiveFeedName.defaults)
        }
        scannerIDs = try query.text("scannerIDs").map { text in
            Set(try Self.named(text, field: "scannerIDs") { name in
                do throws(FieldError) {
                    return try ScannerID(name)
                } catch {
                    throw APIError.invalidField("scannerIDs", error.reason)
                }
            })
        }
        tagIDs = try query.text("tagIDs").map { text in
            Set(try Self.named(text, field: "tagIDs") { name in
                guard let id = Int64(name), id > 0 else {
                    throw APIError.invalidField("tagIDs", "must be tag IDs (whole numbers from 1), comma-separated, got \(APIError.echo(name))")
                }
                return id
            })
        }
        floor = try query.int64("floor")
        if feeds.contains(.switch), scannerIDs == nil {
            throw APIError.invalidField("scannerIDs", "must name the scanners whose switches the stream follows (feeds=switch)")
        }
        if let header = ServerSentEvent.lastEventID(of: request) {
            resume = try LiveCursor(parsing: header, field: "Last-Event-ID")
        } else if let after = query.text("after") {
            resume = try LiveCursor(parsing: after, field: "after")
        }
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: true).map { String($0) }
    }

    private static func named<Value>(_ text: String, field: String, _ parse: (String) throws -> Value) throws -> [Value] {
        let names = list(text)
        guard !names.isEmpty, names.count <= maxNamed else {
            throw APIError.invalidField(field, "must name 1 to \(maxNamed), comma-separated, got \(names.count)")
        }
        return try names.map(parse)
    }

    /// Whether a scanner's item passes `scannerIDs`.
    func follows(_ scannerID: ScannerID) -> Bool {
        scannerIDs?.contains(scannerID) ?? true
    }

    /// Whether a position on `floorID` passes `floor`.
    func follows(floorID: Int64) -> Bool {
        floor.map { $0 == floorID } ?? true
    }
}
