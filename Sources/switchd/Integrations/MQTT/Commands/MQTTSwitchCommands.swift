import Foundation
import Logging
import ScanContract
import SwitchdStore

/// Applies switch commands from `<prefix>/scanners/<id>/switch/set`, by the rules of
/// `PATCH /v1/scanners/{id}/switch`, and answers on `<prefix>/scanners/<id>/switch/result`.
///
/// Two gates: the broker's ACL decides who may publish on the command topic at all, and each
/// command carries an admin bearer token, checked as the HTTP API checks it (a scanner or
/// reader token, an unknown or a revoked one is refused). A refused command changes nothing.
struct MQTTSwitchCommands: Sendable {
    let database: AppDatabase
    let hub: SwitchHub
    let topics: MQTTTopics
    let logger: Logger

    /// The payload on the command topic.
    struct Command: Decodable, Sendable {
        /// An admin bearer token.
        var token: String
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
        let command: Command
        do {
            command = try JSONCoding.decoder().decode(Command.self, from: Data(payload))
        } catch let error as DecodingError {
            return refusal(nil, "invalid_command", "the command is not {\"token\": …, \"switch\": {…}}: \(error.reason)")
        } catch {
            return refusal(nil, "invalid_command", "the command is not JSON")
        }
        do {
            guard let principal = try await TokenAuthenticator(database: database).principal(for: BearerToken(command.token)) else {
                logger.warning("MQTT switch command refused: unknown token", metadata: ["scanner": "\(scanner)"])
                return refusal(command.requestID, "unauthorized", "the token is unknown or revoked")
            }
            guard principal.role == .admin else {
                logger.warning("MQTT switch command refused: not an admin", metadata: ["scanner": "\(scanner)", "token": "\(principal.name)"])
                return refusal(command.requestID, "forbidden", "only an admin token may flip a switch")
            }
            let update = try await database.updateSwitch(of: scanner, with: command.switch, at: .nowInMilliseconds())
            if update.isNewRevision {
                await hub.publish(update.scanSwitch)
                logger.info("Switch changed by MQTT command", metadata: [
                    "scanner": "\(scanner)", "revision": "\(update.scanSwitch.revision)", "token": "\(principal.name)",
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

    private func refusal(_ requestID: String?, _ code: String, _ message: String) -> Result {
        Result(requestID: requestID, accepted: false, error: APIErrorBody.Detail(code: code, message: message))
    }
}
