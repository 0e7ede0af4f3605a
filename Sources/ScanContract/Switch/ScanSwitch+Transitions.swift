#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The switch's state machine. Every function is pure: it returns the next state, and a state that
/// differs from the current one in anything but progress carries the next revision.
extension ScanSwitch {
    /// Applies an admin's change.
    ///
    /// - Survey mode stores its readings: `storeData` becomes true, and an explicit `false` is
    ///   refused. A survey that scans needs the location being surveyed.
    /// - Turning on, or moving to another location or mode, restarts the progress count and the
    ///   stop clock.
    /// - A change that changes nothing keeps the revision (PATCH is idempotent).
    ///
    /// Throws a ``ValidationError`` naming the field when the result would be inconsistent; the
    /// switch is then unchanged. Checks that need storage (does the location exist, is it in that
    /// room) are the caller's.
    public func applying(_ patch: SwitchPatch, at now: Date) throws(ValidationError) -> ScanSwitch {
        var next = self
        next.scanning = patch.scanning ?? scanning
        next.mode = patch.mode ?? mode
        next.roomID = patch.roomID.applied(to: roomID)
        next.locationID = patch.locationID.applied(to: locationID)
        next.stopAfter = patch.stopAfter.applied(to: stopAfter)
        try next.stopAfter?.validate()
        next.allowList = patch.allowList.applied(to: allowList)
        try next.allowList?.validate()

        switch next.mode {
        case .survey:
            if patch.storeData == false {
                throw ValidationError(field: "storeData", reason: "survey mode always stores its readings; use mode \"locate\" to scan without storing")
            }
            next.storeData = true
            if next.scanning && next.locationID == nil {
                throw ValidationError(field: "locationID", reason: "a survey needs the location being surveyed")
            }
        case .locate:
            // Leaving survey mode stops storing unless asked to keep storing.
            next.storeData = patch.storeData ?? (mode == .survey ? false : storeData)
        }

        guard next.differsInSettings(from: self) else { return self }
        next.beginRevision(after: self, at: now)
        return next
    }

    /// Applies an admin's change as one new revision even when it changes no setting, so the
    /// readings taken from now on are told apart from those taken before (a walk survey's
    /// readings are those of its revision).
    ///
    /// Throws a ``ValidationError`` as ``applying(_:at:)`` does; the switch is then unchanged.
    public func restarting(with patch: SwitchPatch, at now: Date) throws(ValidationError) -> ScanSwitch {
        var next = try applying(patch, at: now)
        if next.revision == revision { next.beginRevision(after: self, at: now) }
        return next
    }

    /// Records that readings of scan cycle `scanIndex` (0-based) were stored under this revision;
    /// turns the switch off when that completes its `{scans: N}` condition.
    ///
    /// Returns the switch unchanged for another revision's readings or when nothing moved.
    public func recordingScan(_ scanIndex: Int, ofRevision scanRevision: Int, at now: Date) -> ScanSwitch {
        guard scanning, scanRevision == revision, scanIndex + 1 > scansCompleted else { return self }
        var next = self
        next.scansCompleted = scanIndex + 1
        if case .scans(let limit)? = stopAfter, next.scansCompleted >= limit {
            next.scansCompleted = limit
            next.turnOff(.stopCondition, at: now)
        }
        return next
    }

    /// Turns a `{seconds: T}` switch off once its deadline has passed; otherwise unchanged.
    public func expiring(at now: Date) -> ScanSwitch {
        guard let deadline, now >= deadline else { return self }
        var next = self
        next.turnOff(.stopCondition, at: now)
        return next
    }

    private mutating func turnOff(_ reason: StopReason, at now: Date) {
        scanning = false
        stoppedBy = reason
        revision += 1
        changedAt = now
    }

    /// The next revision after `previous`: progress and the stop clock start again.
    private mutating func beginRevision(after previous: ScanSwitch, at now: Date) {
        revision = previous.revision + 1
        changedAt = now
        scansCompleted = 0
        stoppedBy = scanning ? nil : .turnedOff
    }

    private func differsInSettings(from other: ScanSwitch) -> Bool {
        scanning != other.scanning || mode != other.mode || roomID != other.roomID
            || locationID != other.locationID || storeData != other.storeData || stopAfter != other.stopAfter
            || allowList != other.allowList
    }
}
