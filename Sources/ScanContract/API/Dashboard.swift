#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /v1/dashboard` (admin): what the site did since ``since``, at a glance.
public struct Dashboard: Codable, Hashable, Sendable {
    /// When the figures were read.
    public var time: Date
    /// Start of the window the "today" counts and the dwell figures cover: midnight UTC of
    /// ``time``'s day unless the request gave `since`.
    public var since: Date
    public var counts: DashboardCounts
    /// The newest uploads that stored readings and switch changes, newest first.
    public var recent: [ActivityEntry]
    /// Visits and time spent per room and per item, from stored positions; anonymous.
    public var dwell: DwellFigures

    public init(time: Date, since: Date, counts: DashboardCounts, recent: [ActivityEntry], dwell: DwellFigures) {
        self.time = time
        self.since = since
        self.counts = counts
        self.recent = recent
        self.dwell = dwell
    }
}

public struct DashboardCounts: Codable, Hashable, Sendable {
    /// Scanners that uploaded a batch or a position within ``Dashboard/onlineWindowSeconds``.
    public var scannersOnline: Int
    public var scanners: Int
    /// Readings stored from batches received since the window's start.
    public var readingsToday: Int
    /// Positions computed since the window's start.
    public var positionsToday: Int
    /// Locations with at least one survey reading stored, of all ``locations``.
    public var locationsSurveyed: Int
    public var locations: Int

    public init(scannersOnline: Int, scanners: Int, readingsToday: Int, positionsToday: Int, locationsSurveyed: Int, locations: Int) {
        self.scannersOnline = scannersOnline
        self.scanners = scanners
        self.readingsToday = readingsToday
        self.positionsToday = positionsToday
        self.locationsSurveyed = locationsSurveyed
        self.locations = locations
    }
}

/// One thing a scanner did: a batch uploaded, or its switch changed.
public struct ActivityEntry: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case upload
        case `switch`
    }

    public var time: Date
    public var kind: Kind
    public var scannerID: ScannerID
    /// In words: "stored 40 readings (survey)", "switch on: survey at location 3".
    public var summary: String

    public init(time: Date, kind: Kind, scannerID: ScannerID, summary: String) {
        self.time = time
        self.kind = kind
        self.scannerID = scannerID
        self.summary = summary
    }
}

/// Dwell per room and per item. Counted per scanner's track but reported only as totals: no
/// scanner, no time of a visit.
public struct DwellFigures: Codable, Hashable, Sendable {
    public var rooms: [PlaceDwell]
    public var items: [PlaceDwell]

    public init(rooms: [PlaceDwell], items: [PlaceDwell]) {
        self.rooms = rooms
        self.items = items
    }
}

/// A room (`id` is its room ID) or an item (`id` is its beacon's ID) and how it was visited.
public struct PlaceDwell: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var floorID: Int64
    /// Separate stays: a track's run of positions there, each within the gap of the last.
    public var visits: Int
    /// Seconds from the first to the last position of each stay, added up.
    public var seconds: Double

    public init(id: Int64, name: String, floorID: Int64, visits: Int, seconds: Double) {
        self.id = id
        self.name = name
        self.floorID = floorID
        self.visits = visits
        self.seconds = seconds
    }
}

extension Dashboard {
    /// A scanner heard from within this many seconds counts as online.
    public static let onlineWindowSeconds = 300.0
    /// How many entries ``recent`` lists at most.
    public static let recentLimit = 20
}
