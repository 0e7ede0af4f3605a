/// What switchd noticed of a registered beacon from its sightings (`health` in `GET /v1/beacons`,
/// docs/fleet-health.md): silent (no scanner that heard it hears it, `beaconSilent`) or faded
/// (heard weaker than over the window before, `beaconFaded`), until heard again or back up.
public struct BeaconHealthFlags: Codable, Hashable, Sendable {
    public var silent: Bool
    public var faded: Bool

    public init(silent: Bool, faded: Bool) {
        self.silent = silent
        self.faded = faded
    }
}
