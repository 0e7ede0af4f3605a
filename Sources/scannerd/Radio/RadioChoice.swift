import Logging

/// The `--radio` option.
enum RadioChoice: String, CaseIterable, Sendable {
    /// Real radios when this build can drive them, else the simulation.
    case auto
    case simulated
}

/// Which source to use and why, said once at startup.
struct RadioDecision: Sendable, Equatable {
    enum Source: String, Sendable { case simulated }

    var source: Source
    var reason: String

    /// This build has no real radio sources yet, so every choice ends in the simulation; the
    /// reason says what hardware was seen, so an operator knows what they are missing.
    static func decide(_ choice: RadioChoice, adapters: DetectedAdapters) -> RadioDecision {
        switch choice {
        case .simulated:
            return RadioDecision(source: .simulated, reason: "--radio simulated")
        case .auto:
            if adapters.isEmpty {
                return RadioDecision(source: .simulated, reason: "no Bluetooth or Wi-Fi adapter found")
            }
            return RadioDecision(
                source: .simulated,
                reason: "found \(adapters.all.joined(separator: ", ")), but this build has no real radio sources yet"
            )
        }
    }
}
