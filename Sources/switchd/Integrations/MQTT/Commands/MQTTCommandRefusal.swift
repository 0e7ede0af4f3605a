import CoreMetrics
import Foundation

/// Why switchd refused an MQTT command before reading what it asks: the `error.code` and
/// `error.message` of the answer on `…/switch/result`, the log line's `reason`, and the
/// `reason` label of `switchd_mqtt_commands_refused_total`. No case carries a secret.
enum MQTTCommandRefusal: Error, Equatable, Sendable {
    /// `--mqtt-commands` without `--mqtt-command-secret-file`.
    case noSecret
    /// The form switchd took before: JSON carrying an HTTP bearer token.
    case tokenInCommand
    /// Not in the signed form; says what is wrong.
    case unsigned(String)
    /// The MAC is not the command secret's for this topic and payload.
    case badMAC
    /// Signed longer ago than the window allows.
    case expired(timestamp: Int64, now: Int64, maxAge: Int64)
    /// Signed further ahead of switchd's clock than the allowed skew.
    case future(timestamp: Int64, now: Int64, maxAhead: Int64)
    /// Its nonce was seen within the window.
    case replayed
    /// Stamped at or before a time switchd can no longer tell replays from: when it started
    /// taking commands (a start, or a takeover in a cluster), or the oldest nonce it let go of
    /// when its memory was full.
    case beforeHorizon(timestamp: Int64, horizon: Int64)

    enum Reason: String, CaseIterable, Sendable {
        case noSecret = "no_command_secret", tokenInCommand = "token_not_accepted", unsigned, badMAC = "bad_mac"
        case expired, future, replayed, beforeHorizon = "replay_horizon"
    }

    var reason: Reason {
        switch self {
        case .noSecret: .noSecret
        case .tokenInCommand: .tokenInCommand
        case .unsigned: .unsigned
        case .badMAC: .badMAC
        case .expired: .expired
        case .future: .future
        case .replayed: .replayed
        case .beforeHorizon: .beforeHorizon
        }
    }

    var message: String {
        switch self {
        case .noSecret:
            "switchd has no command secret (--mqtt-command-secret-file), so it takes no MQTT command"
        case .tokenInCommand:
            "switchd no longer takes HTTP tokens over MQTT: sign the command with the command secret (docs/mqtt.md), and revoke the token, which every reader of the topic has seen"
        case .unsigned(let why):
            "the command is not signed: \(why)"
        case .badMAC:
            "the MAC does not match: not signed with the command secret, or signed for another topic or payload"
        case .expired(let timestamp, let now, let maxAge):
            "the command was signed \(now - timestamp) s ago; switchd takes commands signed at most \(maxAge) s ago (check the sender's clock)"
        case .future(let timestamp, let now, let maxAhead):
            "the command is stamped \(timestamp - now) s ahead of switchd's clock; at most \(maxAhead) s are allowed (check the sender's clock)"
        case .replayed:
            "this nonce was used already; every command needs a new one"
        case .beforeHorizon(let timestamp, let horizon):
            "the command is stamped \(timestamp), and switchd takes only commands stamped after \(horizon) (it started taking commands then, or it forgot older nonces); sign it again with the current time"
        }
    }
}

/// `switchd_mqtt_commands_refused_total{reason}` and `switchd_mqtt_commands_authenticated_total`,
/// created once.
struct MQTTCommandMetrics: Sendable {
    private let refused: [MQTTCommandRefusal.Reason: CoreMetrics.Counter]
    private let authenticated: CoreMetrics.Counter

    init(factory: any MetricsFactory) {
        refused = Dictionary(uniqueKeysWithValues: MQTTCommandRefusal.Reason.allCases.map { reason in
            (reason, CoreMetrics.Counter(label: "switchd_mqtt_commands_refused_total", dimensions: [("reason", reason.rawValue)], factory: factory))
        })
        authenticated = CoreMetrics.Counter(label: "switchd_mqtt_commands_authenticated_total", factory: factory)
    }

    func count(_ refusal: MQTTCommandRefusal) {
        refused[refusal.reason]?.increment()
    }

    func countAuthenticated() {
        authenticated.increment()
    }
}
