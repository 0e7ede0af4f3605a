import ScanContract

/// Wakes whoever waits for a switch to change: long-polls, switch streams and the deadline
/// service. It carries no state of its own worth trusting; woken tasks read the switch from the
/// database.
actor SwitchHub {
    private var revisions: [ScannerID: Watermark] = [:]
    /// Counts every published change of any switch.
    let anyChange = Watermark()
    /// Counts changes of what the watched lists are made of (tags, beacons, placements, floors).
    let watchedTags = Watermark()
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

    func publish(_ scanSwitches: [ScanSwitch]) async {
        for scanSwitch in scanSwitches {
            await publish(scanSwitch)
        }
    }

    /// Records that `scannerID`'s watched list left `leftOut` identities off; true when that is
    /// another number than last time, so a shortened list is logged once, not on every long-poll.
    func noteWatchedLeftOut(_ leftOut: Int, by scannerID: ScannerID) -> Bool {
        let previous = watchedLeftOut[scannerID] ?? 0
        watchedLeftOut[scannerID] = leftOut == 0 ? nil : leftOut
        return previous != leftOut
    }
}
