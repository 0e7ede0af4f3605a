import Logging

/// How one switchd process is run: where it listens, where it keeps its state, what it accepts.
struct Settings: Sendable {
    static let defaultHost = "127.0.0.1"
    static let defaultPort = 8080
    static let defaultStateDirectory = "./state/switchd"
    /// Request bodies larger than this are refused with 413 `body_too_large`.
    static let defaultMaxBodyBytes = 4 * 1024 * 1024
    /// Floor plans larger than this are refused with 413 `body_too_large`.
    static let defaultMaxPlanBytes = 8 * 1024 * 1024
    /// Metres per second a route's ETA assumes when the request does not say.
    static let defaultWalkingSpeed = 1.4

    var host: String = defaultHost
    /// 0 picks a free port; the bound one is reported through `onServerRunning`.
    var port: Int = defaultPort
    var stateDirectory: String = defaultStateDirectory
    var maxBodyBytes: Int = defaultMaxBodyBytes
    var maxPlanBytes: Int = defaultMaxPlanBytes
    var walkingSpeed: Double = defaultWalkingSpeed
    var logLevel: Logger.Level = .info
}
