/// One `KEY=VALUE` line of an sd_notify message (see sd_notify(3)).
public enum NotifyState: Sendable, Equatable {
    /// `READY=1`: start-up is finished; a `Type=notify` unit counts as started from here.
    case ready
    /// `STATUS=…`: one line of free text shown by `systemctl status`.
    case status(String)
    /// `STOPPING=1`: shutdown has begun.
    case stopping
    /// `WATCHDOG=1`: the service is alive; must come more often than `WatchdogSec=`.
    case watchdog

    /// The line as systemd reads it. A status's line breaks become spaces, since a newline would
    /// start another assignment.
    public var line: String {
        switch self {
        case .ready: "READY=1"
        case .status(let text): "STATUS=" + text.split(whereSeparator: \.isNewline).joined(separator: " ")
        case .stopping: "STOPPING=1"
        case .watchdog: "WATCHDOG=1"
        }
    }
}
