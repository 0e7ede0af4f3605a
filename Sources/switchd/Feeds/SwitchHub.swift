import ScanContract

/// Wakes whoever waits for a switch to change: long-polls, switch streams and the deadline
/// service. It carries no state of its own worth trusting; woken tasks read the switch from the
/// database.
actor SwitchHub {
    private var revisions: [ScannerID: Watermark] = [:]
    /// Counts every published change of any switch.
    let anyChange = Watermark()
    /// Counts changes of the tag table: the watched tags every switch carries.
    let watchedTags = Watermark()

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
}
