#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of a webhook delivery, in the Standard Webhooks shape: `type` (`presence.entered`,
/// …), `timestamp` (the event's time) and `data` (the ``PresenceEvent``).
public struct WebhookPayload: Codable, Hashable, Sendable {
    public var type: String
    public var timestamp: Date
    public var data: PresenceEvent

    public init(_ event: PresenceEvent) {
        type = event.type
        timestamp = event.time
        data = event
    }
}
