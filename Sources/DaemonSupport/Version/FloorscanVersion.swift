/// The floorscan release both daemons are built from: the version of debian/changelog's first
/// entry (a test keeps them equal). scannerd reports it to switchd with its counters, and
/// switchd warns when its scanners do not all run the same one (docs/fleet-health.md).
public enum FloorscanVersion {
    public static let current = "0.2.0"
}
