extension WiFiKNNLocator.Settings {
    /// The settings chosen on UJIIndoorLoc's training data alone (leave-one-user-out; see
    /// docs/wifi-fingerprinting.md), used unless a caller has reason to differ.
    public static var standard: Self { Self(buildingVoters: 5, floorVoters: 3, neighbours: 11) }
}

extension PoweredRSSI {
    /// The representation chosen with `WiFiKNNLocator.Settings.standard`: powed with exponent 2
    /// (the leave-one-user-out selection preferred it to e), floor −104 dBm, no extra threshold.
    public static var standard: Self { Self(floorDBm: -104, exponent: 2, weakestHeardDBm: -104) }
}
