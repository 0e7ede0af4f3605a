#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Smooths positions over time with a constant-velocity Kalman filter (per axis: position and
/// velocity, driven by white acceleration noise). Each measurement's noise comes from its
/// accuracy radius, so a vague estimate moves the track little. The filter starts afresh on a
/// floor change, after a long silence, or when time runs backwards.
public struct PositionKalmanFilter: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Standard deviation of the walker's acceleration, m/s² (people walk at ≈ 1.4 m/s and
        /// turn or stop within a couple of seconds).
        public var accelerationNoise: Double
        /// A gap longer than this (seconds) restarts the filter.
        public var maximumGap: Double
        /// Initial speed uncertainty, m/s.
        public var initialSpeedSpread: Double

        public init(accelerationNoise: Double = 0.5, maximumGap: Double = 30, initialSpeedSpread: Double = 1) {
            self.accelerationNoise = accelerationNoise
            self.maximumGap = maximumGap
            self.initialSpeedSpread = initialSpeedSpread
        }
    }

    public static let methodName = "filtered"
    public var settings: Settings
    /// State per axis: position x, y and velocity vx, vy.
    private var position = (x: 0.0, y: 0.0)
    private var velocity = (x: 0.0, y: 0.0)
    /// Covariance of (position, velocity), the same for both axes since their noises are equal:
    /// [pp, pv; pv, vv].
    private var covariance = (pp: 0.0, pv: 0.0, vv: 0.0)
    private var floorID: Int64?
    private var lastTime: Double?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Forgets the track; the next update starts from its measurement.
    public mutating func reset() {
        lastTime = nil
    }

    /// Feeds one estimate made at `time` (seconds, any origin) and returns the smoothed one.
    /// The measurement noise per axis is accuracy² / 2 (the accuracy radius being √2 standard
    /// deviations of an isotropic error). Non-finite input is ignored: the current state is
    /// returned (or the input itself when there is none yet).
    public mutating func update(_ estimate: PositionEstimate, at time: Double) -> PositionEstimate {
        let radius = estimate.accuracyMetres
        guard estimate.x.isFinite, estimate.y.isFinite, radius.isFinite, radius > 0, time.isFinite else {
            return lastTime == nil ? estimate : current
        }
        let r = max(radius * radius / 2, 1e-6)
        guard let last = lastTime, estimate.floorID == floorID, time >= last, time - last <= settings.maximumGap else {
            start(estimate, r: r, at: time)
            return current
        }
        predict(over: time - last)
        let s = covariance.pp + r
        let gainP = covariance.pp / s, gainV = covariance.pv / s
        let innovation = (x: estimate.x - position.x, y: estimate.y - position.y)
        position = (position.x + gainP * innovation.x, position.y + gainP * innovation.y)
        velocity = (velocity.x + gainV * innovation.x, velocity.y + gainV * innovation.y)
        covariance = (
            pp: (1 - gainP) * covariance.pp,
            pv: (1 - gainP) * covariance.pv,
            vv: covariance.vv - gainV * covariance.pv
        )
        lastTime = time
        return current
    }

    /// The smoothed estimate now; accuracy √(2·variance of position per axis).
    public var current: PositionEstimate {
        PositionEstimate(floorID: floorID, x: position.x, y: position.y, accuracyMetres: (2 * covariance.pp).squareRoot(), method: Self.methodName)
    }

    private mutating func start(_ estimate: PositionEstimate, r: Double, at time: Double) {
        position = (estimate.x, estimate.y)
        velocity = (0, 0)
        covariance = (r, 0, settings.initialSpeedSpread * settings.initialSpeedSpread)
        floorID = estimate.floorID
        lastTime = time
    }

    private mutating func predict(over dt: Double) {
        position = (position.x + dt * velocity.x, position.y + dt * velocity.y)
        let q = settings.accelerationNoise * settings.accelerationNoise
        let (pp, pv, vv) = covariance
        covariance = (
            pp: pp + 2 * dt * pv + dt * dt * vv + q * pow(dt, 4) / 4,
            pv: pv + dt * vv + q * pow(dt, 3) / 2,
            vv: vv + q * dt * dt
        )
    }
}

extension PositionKalmanFilter {
    /// What the filter has learnt from its measurements, without its settings: enough to go on
    /// where it stopped in another process (switchd stores each tag's, see ``TagTrack``). Every
    /// figure is kept as it is, so a filter rebuilt from its state steps bit for bit as the
    /// original would.
    public struct State: Codable, Hashable, Sendable {
        public var x: Double
        public var y: Double
        public var velocityX: Double
        public var velocityY: Double
        /// The covariance of (position, velocity) per axis: [pp, pv; pv, vv].
        public var pp: Double
        public var pv: Double
        public var vv: Double
        public var floorID: Int64?
        /// The time of the last measurement taken; nil before the first (or after ``reset()``).
        public var lastTime: Double?
    }

    /// A filter with `settings` going on from `state`.
    public init(settings: Settings, state: State) {
        self.init(settings: settings)
        self.state = state
    }

    public var state: State {
        get {
            State(
                x: position.x, y: position.y, velocityX: velocity.x, velocityY: velocity.y,
                pp: covariance.pp, pv: covariance.pv, vv: covariance.vv, floorID: floorID, lastTime: lastTime
            )
        }
        set {
            position = (newValue.x, newValue.y)
            velocity = (newValue.velocityX, newValue.velocityY)
            covariance = (newValue.pp, newValue.pv, newValue.vv)
            floorID = newValue.floorID
            lastTime = newValue.lastTime
        }
    }
}
