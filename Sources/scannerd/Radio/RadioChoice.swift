/// The `--radio` option.
enum RadioChoice: String, CaseIterable, Sendable {
    /// The machine's radios when it has a Bluetooth controller or a Wi-Fi interface, else the simulation.
    case auto
    case simulated
    /// The machine's radios, whichever of the two exist; fails when there is neither.
    case hardware
}

/// Which source to use and why, said once at startup.
struct RadioDecision: Sendable, Equatable {
    enum Source: Sendable, Equatable {
        case simulated
        /// The Bluetooth controller and the Wi-Fi interface to scan with; either may be absent.
        case hardware(bluetooth: String?, wifi: String?)

        var name: String {
            switch self {
            case .simulated: "simulated"
            case .hardware: "hardware"
            }
        }
    }

    var source: Source
    var reason: String

    /// Picks the radios: the named controller and interface when given (they must exist), else the
    /// first of each the kernel lists. `auto` falls back to the simulation when none is usable;
    /// `hardware` throws then, and also when a named one is missing.
    static func decide(
        _ choice: RadioChoice, adapters: DetectedAdapters, hciDevice: String? = nil, wifiInterface: String? = nil
    ) throws(RadioChoiceError) -> RadioDecision {
        if choice == .simulated {
            return RadioDecision(source: .simulated, reason: "--radio simulated")
        }
        let bluetooth = hciDevice.map { adapters.bluetooth.contains($0) ? $0 : nil } ?? adapters.bluetooth.first
        let wifi = wifiInterface.map { adapters.wifiInterfaces.contains($0) ? $0 : nil } ?? adapters.wifiInterfaces.first
        let missing = [
            hciDevice.flatMap { bluetooth == nil ? "Bluetooth controller \($0)" : nil },
            wifiInterface.flatMap { wifi == nil ? "Wi-Fi interface \($0)" : nil },
        ].compactMap { $0 }
        if choice == .hardware, !missing.isEmpty {
            throw .missing(missing, seen: adapters)
        }
        guard bluetooth != nil || wifi != nil else {
            if choice == .hardware { throw .noRadio(seen: adapters) }
            let why = adapters.isEmpty && adapters.wifiInterfaces.isEmpty
                ? "no Bluetooth or Wi-Fi adapter found"
                : "no usable radio among \(adapters.summary)" + (missing.isEmpty ? "" : " (no \(missing.joined(separator: ", ")))")
            return RadioDecision(source: .simulated, reason: why)
        }
        let using = [bluetooth, wifi].compactMap { $0 }.joined(separator: " and ")
        let reason = choice == .hardware ? "--radio hardware: \(using)" : "found \(using)"
        return RadioDecision(source: .hardware(bluetooth: bluetooth, wifi: wifi), reason: reason)
    }
}

/// `--radio hardware` without the radios it needs.
enum RadioChoiceError: Error, CustomStringConvertible, Equatable {
    case noRadio(seen: DetectedAdapters)
    case missing([String], seen: DetectedAdapters)

    var description: String {
        switch self {
        case .noRadio(let seen):
            "--radio hardware: no Bluetooth controller and no Wi-Fi interface found (\(seen.summary)); use --radio simulated or auto"
        case .missing(let names, let seen):
            "--radio hardware: no \(names.joined(separator: " and ")) (\(seen.summary))"
        }
    }
}
