extension WiFiKNNLocator.Settings {
    /// The settings chosen on training data alone (UJIIndoorLoc's leave-one-phone-out with each
    /// query's own survey point removed, then the neighbour ratio by cross-validation inside the
    /// fingerprint suite's eight train files; see docs/wifi-fingerprinting.md), used unless a
    /// caller has reason to differ.
    public static var standard: Self {
        Self(
            buildingVoters: 5, floorVoters: 5, neighbours: 31,
            floorVoteWeightPower: 3, positionWeightPower: 2, neighbourDistanceRatio: 1.25)
    }
}

extension PoweredRSSI {
    /// The representation chosen with `WiFiKNNLocator.Settings.standard`: powed with exponent 2
    /// (the training-only selections preferred it to 1.5, 2.5, e and 3), floor −104 dBm, no extra threshold.
    public static var standard: Self { Self(floorDBm: -104, exponent: 2, weakestHeardDBm: -104) }
}
