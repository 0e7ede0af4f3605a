import DaemonSupport
import Foundation
import ScanContract
import SwitchdStore

/// What one connection has published so far, so only changes are sent again. A new connection
/// (or Home Assistant's birth message) starts from an empty one: everything is published again.
struct PublishedState: Sendable {
    var scanners: [ScannerID: ScanContract.Scanner] = [:]
    /// What each scanner was announced as (``Discovery/ScannerRole``).
    var roles: [ScannerID: Discovery.ScannerRole] = [:]
    /// The scanners with a position: they move, so they keep a tracker.
    var moving: Set<ScannerID> = []
    /// The placed scanners, as last read.
    var placements: [ScannerID: ScannerPlacement] = [:]
    /// `hub.anyChange` as last read: switches and the scanner list are read again when it moves.
    var switchMark: Int64 = -1
    /// `hub.watchedTags` as last read: tags and placements are read again when it moves.
    var watchedMark: Int64 = -1
    /// ``SwitchHub/deletions(after:)``'s mark as last read.
    var deletionMark = 0
    var switchRevisions: [ScannerID: Int] = [:]
    /// The highest position ID read.
    var positionCursor: Int64 = 0
    var positionTimes: [ScannerID: Date] = [:]
    var rooms: [ScannerID: String] = [:]
    /// The highest measurement sequence read.
    var measurementCursor: Int64 = 0
    /// The highest batch row ID whose receipt time was read.
    var batchCursor: Int64 = 0
    /// When switchd last heard from each scanner (a batch received, a position computed, a
    /// window of sightings reported), and what it published of that.
    var scannerContacts = Contacts<ScannerID>()
    /// The highest sighting ID read, and what each receiver reported since the connection.
    var sightingCursor: Int64 = 0
    var receiverRates = ReceiverRates()
    var receivers: [ScannerID: ReceiverMessage] = [:]
    /// When the receivers' messages are next worked out again (their rates move with time).
    var receiversDue: Date?

    var tags: [Int64: Tag] = [:]
    /// The highest tag position ID read.
    var tagPositionCursor: Int64 = 0
    var tagPositionTimes: [Int64: Date] = [:]
    var tagRooms: [Int64: String] = [:]
    /// When each tag was last located, and what was published of that.
    var tagContacts = Contacts<Int64>()
    /// The telemetry published of each tag and beacon, with the name its battery entities were
    /// announced under.
    var telemetry: [TelemetrySubject: TelemetryEntry] = [:]
    var telemetryMark: Int64 = -1

    /// Forgets everything published of a deleted scanner: one registered again under its ID
    /// is announced and published afresh.
    mutating func forget(_ scanner: ScannerID) {
        scanners[scanner] = nil
        roles[scanner] = nil
        moving.remove(scanner)
        switchRevisions[scanner] = nil
        positionTimes[scanner] = nil
        rooms[scanner] = nil
        scannerContacts.forget(scanner)
        receiverRates.forget(scanner)
        receivers[scanner] = nil
    }

    /// Forgets everything published of a deleted tag.
    mutating func forget(tag tagID: Int64) {
        tags[tagID] = nil
        tagPositionTimes[tagID] = nil
        tagRooms[tagID] = nil
        tagContacts.forget(tagID)
    }

    /// How long until the first online scanner or tag goes offline if nothing is heard, or the
    /// receivers are due; nil when none is online and nothing is due.
    func untilNextTimeout(at now: Date, timeout: Duration) -> Duration? {
        let due = receiversDue.map { $0.timeIntervalSince(now) }
        let remaining = [scannerContacts.untilTimeout(at: now, timeout: timeout), tagContacts.untilTimeout(at: now, timeout: timeout), due]
            .compactMap { $0 }.min()
        return remaining.map { Duration(secondsRoundedUp: max(0, $0)) + .milliseconds(1) }
    }
}

/// When switchd last heard from each scanner (or located each tag), and the availability and
/// last-seen time it published for it.
struct Contacts<Key: Hashable & Sendable>: Sendable {
    var contacts: [Key: Date] = [:]
    var availability: [Key: MQTTAvailability] = [:]
    var lastSeen: [Key: Date] = [:]

    mutating func heard(from key: Key, at time: Date) {
        contacts[key] = max(contacts[key] ?? time, time)
    }

    mutating func forget(_ key: Key) {
        contacts[key] = nil
        availability[key] = nil
        lastSeen[key] = nil
    }

    /// Online while switchd heard from it less than `timeout` before `now`.
    func availability(of key: Key, at now: Date, timeout: Duration) -> MQTTAvailability {
        guard let contact = contacts[key] else { return .offline }
        return now.timeIntervalSince(contact) < timeout.seconds ? .online : .offline
    }

    /// Seconds until the first one published online goes offline if nothing is heard; nil when none is online.
    func untilTimeout(at now: Date, timeout: Duration) -> Double? {
        availability.compactMap { key, published -> Double? in
            guard published == .online, let contact = contacts[key] else { return nil }
            return contact.timeIntervalSince(now) + timeout.seconds
        }.min()
    }

    /// The availability and last-seen messages of `keys` that changed (on `topics(key)`'s
    /// availability and last-seen topics), noted as published.
    mutating func changes(
        of keys: [Key], at now: Date, timeout: Duration, topics: (Key) -> (availability: String, lastSeen: String)
    ) -> [MQTTMessage] {
        var messages: [MQTTMessage] = []
        for key in keys {
            let (availabilityTopic, lastSeenTopic) = topics(key)
            let current = availability(of: key, at: now, timeout: timeout)
            if availability[key] != current {
                availability[key] = current
                messages.append(MQTTMessage(topic: availabilityTopic, text: current.rawValue, qos: .atLeastOnce, retain: true))
            }
            if let contact = contacts[key], lastSeen[key] != contact {
                lastSeen[key] = contact
                messages.append(MQTTMessage(topic: lastSeenTopic, text: JSONCoding.formatDate(contact), qos: .atLeastOnce, retain: true))
            }
        }
        return messages
    }
}

/// What each receiver reported, by when switchd read it (not by the scanner's clock, which may
/// be off): windows and sightings a minute over the last minute, or over the time since the
/// connection when that is shorter but at least ``shortestSpan``.
struct ReceiverRates: Sendable {
    static let span = 60.0
    static let shortestSpan = 10.0

    /// Since when reports are counted.
    var since: Date?
    private var reads: [ScannerID: [(at: Date, windows: Int, sightings: Int)]] = [:]

    mutating func read(_ reports: [ScannerID: SightingReport], at now: Date) {
        for (scanner, report) in reports {
            reads[scanner, default: []].append((now, report.windows, report.sightings))
        }
        for scanner in reads.keys {
            reads[scanner]?.removeAll { now.timeIntervalSince($0.at) >= Self.span }
        }
    }

    mutating func forget(_ scanner: ScannerID) {
        reads[scanner] = nil
    }

    /// Windows and sightings a minute of `scanner` at `now`; nil while switchd has watched for
    /// less than ``shortestSpan``.
    func perMinute(of scanner: ScannerID, at now: Date) -> (windows: Double, sightings: Double)? {
        guard let since else { return nil }
        let watched = min(now.timeIntervalSince(since), Self.span)
        guard watched >= Self.shortestSpan else { return nil }
        let recent = (reads[scanner] ?? []).filter { now.timeIntervalSince($0.at) < Self.span }
        let scale = 60 / watched
        return (Double(recent.reduce(0) { $0 + $1.windows }) * scale, Double(recent.reduce(0) { $0 + $1.sightings }) * scale)
    }
}
