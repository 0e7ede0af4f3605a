import Foundation
import Logging
import ScanContract
import SwitchdStore

/// Applies switch commands from `<prefix>/scanners/<id>/switch/set`, by the rules of
/// `PATCH /v1/scanners/{id}/switch`, and answers on `<prefix>/scanners/<id>/switch/result`.
///
/// Two gates: the broker's ACL decides who may publish on the command topic at all, and each
/// command is signed with the command secret (``MQTTSignedCommand``): a command with a wrong MAC,
/// signed outside the time window, or whose nonce was seen within it, is refused, counted in
/// `switchd_mqtt_commands_refused_total` and logged (without the secret or the MAC), and changes
/// nothing. No HTTP token travels over MQTT: a command still in the old form, carrying one, is
/// refused with a log line saying what to do instead.
struct MQTTSwitchCommands: Sendable {
    let database: AppDatabase
    let hub: SwitchHub
    let topics: MQTTTopics
    /// Nil when `--mqtt-command-secret-file` is not given: every command is refused then.
    let secret: MQTTCommandSecret?
    let nonces: MQTTCommandNonces
    let metrics: MQTTCommandMetrics
    let logger: Logger
    /// switchd's time of day, which command timestamps are checked against.
    let now: @Sendable () -> Date

    /// The command's JSON, after the signature line.
    struct Command: Decodable, Sendable {
        /// What `PATCH /v1/scanners/{id}/switch` takes.
        var `switch`: SwitchPatch
        /// Echoed in the result, so a caller can match it.
        var requestID: String?
    }

    /// The payload on the result topic: the switch as it now is, or why nothing changed.
    struct Result: Encodable, Sendable {
        var requestID: String?
        var accepted: Bool
        var `switch`: ScanSwitch?
        var error: APIErrorBody.Detail?
    }

    /// Called when this switchd starts taking commands (``MQTTPublisher/run()``): commands signed
    /// before then may have been taken by another instance, or by this one before a restart.
    func startListening() {
        nonces.startListening(at: now())
        if secret == nil {
            logger.error("--mqtt-commands is on without --mqtt-command-secret-file: every MQTT command will be refused (docs/mqtt.md, Commands)")
        }
    }

    /// Applies one command and returns the result message (QoS 1, not retained).
    func apply(_ payload: [UInt8], to scanner: ScannerID) async -> MQTTMessage {
        let result = await result(of: payload, for: scanner)
        let message: MQTTMessage
        do {
            message = try .json(result, topic: topics.switchCommandResult(scanner), retain: false)
        } catch {
            message = MQTTMessage(topic: topics.switchCommandResult(scanner), text: #"{"accepted":false}"#, qos: .atLeastOnce, retain: false)
        }
        return message
    }

    private func result(of payload: [UInt8], for scanner: ScannerID) async -> Result {
        let signed: MQTTSignedCommand
        do {
            signed = try authenticate(payload, on: topics.switchCommand(scanner))
        } catch {
            metrics.count(error)
            log(error, scanner: scanner)
            return refusal(Self.requestID(in: payload), error.reason.rawValue, error.message)
        }
        metrics.countAuthenticated()
        let command: Command
        do {
            command = try JSONCoding.decoder().decode(Command.self, from: Data(signed.body))
        } catch let error as DecodingError {
            return refusal(Self.requestID(in: payload), "invalid_command", "the command is not {\"switch\": {…}, \"requestID\": …}: \(error.reason)")
        } catch {
            return refusal(nil, "invalid_command", "the command is not JSON")
        }
        do {
            let update = try await database.updateSwitch(of: scanner, with: command.switch, at: .nowInMilliseconds())
            if update.isNewRevision {
                await hub.publish(update.scanSwitch)
                logger.info("Switch changed by MQTT command", metadata: [
                    "scanner": "\(scanner)", "revision": "\(update.scanSwitch.revision)", "nonce": "\(signed.nonce)",
                ])
            }
            return Result(requestID: command.requestID, accepted: true, switch: update.scanSwitch)
        } catch let error as StoreError {
            return Result(requestID: command.requestID, accepted: false, error: ErrorMiddleware<AppRequestContext>.apiError(for: error, logger: logger).body.error)
        } catch let error as ValidationError {
            return Result(requestID: command.requestID, accepted: false, error: APIError.invalidField(error).body.error)
        } catch {
            logger.error("MQTT switch command failed", metadata: ["scanner": "\(scanner)", "error": "\(error)"])
            return refusal(command.requestID, "internal", "switchd could not apply the command; the details are in its log")
        }
    }

    /// The signed command in `payload` when it is signed with the secret for `topic`, within the
    /// window, with a nonce not seen within it (remembered from now on).
    private func authenticate(_ payload: [UInt8], on topic: String) throws(MQTTCommandRefusal) -> MQTTSignedCommand {
        let signed = try MQTTSignedCommand(parsing: payload)
        guard let secret else { throw .noSecret }
        guard signed.isAuthentic(on: topic, secret: secret) else { throw .badMAC }
        if let refusal = nonces.admit(timestamp: signed.timestamp, nonce: signed.nonce, at: now()) { throw refusal }
        return signed
    }

    /// Logs a refusal: the reason, never the payload (it may hold a token) nor the MAC.
    private func log(_ refusal: MQTTCommandRefusal, scanner: ScannerID) {
        let metadata: Logger.Metadata = ["scanner": "\(scanner)", "reason": "\(refusal.reason.rawValue)"]
        if refusal == .tokenInCommand {
            logger.error("""
                MQTT switch command refused: it carries an HTTP token, which switchd no longer takes over MQTT. \
                Sign commands with the secret of --mqtt-command-secret-file (docs/mqtt.md, Commands), and revoke \
                that token (switchd token revoke): whoever may read the command topic has seen it
                """, metadata: metadata)
        } else {
            logger.warning("MQTT switch command refused", metadata: metadata.merging(["why": "\(refusal.message)"]) { $1 })
        }
    }

    /// The `requestID` of a command's JSON (after the signature line, if any), to answer with
    /// even when the command is refused; nil when there is none to read.
    private static func requestID(in payload: [UInt8]) -> String? {
        struct Tagged: Decodable {
            var requestID: String?
        }
        let signatureLine = Array("\(MQTTSignedCommand.version) ".utf8)
        let lineEnd = payload.starts(with: signatureLine) ? payload.firstIndex(of: UInt8(ascii: "\n")) : nil
        let body = lineEnd.map { Array(payload[payload.index(after: $0)...]) } ?? payload
        return (try? JSONDecoder().decode(Tagged.self, from: Data(body)))?.requestID
    }

    private func refusal(_ requestID: String?, _ code: String, _ message: String) -> Result {
        Result(requestID: requestID, accepted: false, error: APIErrorBody.Detail(code: code, message: message))
    }
}
