import ScanContract

/// Wakes whoever waits for a switch to change: long-polls, switch streams and the deadline
/// service. It carries no state of its own worth trusting; woken tasks read the switch from the
/// database.
actor SwitchHub {
    private var revisions: [ScannerID: Watermark] = [:]
    /// Counts every published change of any switch, and every scanner deleted.
    let anyChange = Watermark()
    /// Counts changes of what the watched lists are made of (tags, beacons, placements, floors).
    let watchedTags = Watermark()
    /// Counts changes of scanner settings (a scanner's own or the fleet's).
    let settings = Watermark()
    /// The scanners deleted since switchd started, in order; the count so far is the mark
    /// ``deletions(after:)`` takes.
    private var deleted: [ScannerID] = []

    /// The value a deleted scanner's revision watermark is raised to: whoever holds it is woken
    /// at once, and every later wait on it returns at once, so a waiter checks ``isRetired(_:)``.
    static let retired = Int64.max
    /// How many identities each scanner's last watched list left off (absent: none).
    private var watchedLeftOut: [ScannerID: Int] = [:]

    /// The watermark of one scanner's published revisions.
    func revisions(of scannerID: ScannerID) -> Watermark {
        if let watermark = revisions[scannerID] { return watermark }
        let watermark = Watermark()
        revisions[scannerID] = watermark
        return watermark
    }

    /// Announces a new revision, after it is committed.
    func publish(_ scanSwitch: ScanSwitch) async {
        await revisions(of: scanSwitch.scannerID).raise(to: Int64(scanSwitch.revision))
        await anyChange.bump()
    }

    /// Announces a revision another instance committed (``ClusterFanOutService``); a revision
    /// already announced here changes nothing but ``anyChange``.
    func publish(revision: Int, of scannerID: ScannerID) async {
        await revisions(of: scannerID).raise(to: Int64(revision))
        await anyChange.bump()
    }

    func publish(_ scanSwitches: [ScanSwitch]) async {
        for scanSwitch in scanSwitches {
            await publish(scanSwitch)
        }
    }

    /// Announces that a scanner was deleted, after the delete is committed: its long-polls and
    /// switch streams are woken to end, and a scanner registered again under the ID gets a
    /// fresh watermark.
    func retire(_ scannerID: ScannerID) async {
        let watermark = revisions.removeValue(forKey: scannerID)
        deleted.append(scannerID)
        watchedLeftOut[scannerID] = nil
        await watermark?.raise(to: Self.retired)
        await anyChange.bump()
    }

    /// Whether `watermark` is the revision watermark of a scanner deleted since it was handed out.
    static func isRetired(_ watermark: Watermark) async -> Bool {
        await watermark.value == retired
    }

    /// The scanners deleted after the first `mark`, and the mark to pass next time.
    func deletions(after mark: Int) -> (scanners: [ScannerID], mark: Int) {
        (Array(deleted.dropFirst(mark)), deleted.count)
    }

    /// Records that `scannerID`'s watched list left `leftOut` identities off; true when that is
    /// another number than last time, so a shortened list is logged once, not on every long-poll.
    func noteWatchedLeftOut(_ leftOut: Int, by scannerID: ScannerID) -> Bool {
        let previous = watchedLeftOut[scannerID] ?? 0
        watchedLeftOut[scannerID] = leftOut == 0 ? nil : leftOut
        return previous != leftOut
    }
}
