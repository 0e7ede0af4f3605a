#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A webhook subscription as switchd lists it: never its secret, which is shown only when it is
/// created (``CreatedWebhook``).
public struct Webhook: Codable, Hashable, Sendable {
    public var id: Int64
    public var url: String
    /// The kinds sent, in the order of ``PresenceEventKind/allCases``.
    public var events: [PresenceEventKind]
    /// Whose events are sent, in the order of ``WebhookSubject/allCases``.
    public var subjects: [WebhookSubject]
    public var created: Date
    /// How its deliveries stand now.
    public var deliveries: WebhookDeliveryCounts

    public init(
        id: Int64, url: String, events: [PresenceEventKind], subjects: [WebhookSubject] = WebhookSubject.allCases, created: Date,
        deliveries: WebhookDeliveryCounts
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.subjects = subjects
        self.created = created
        self.deliveries = deliveries
    }
}

/// How many of a webhook's deliveries are in each state.
public struct WebhookDeliveryCounts: Codable, Hashable, Sendable {
    public var pending: Int
    public var delivered: Int
    public var dead: Int

    public init(pending: Int, delivered: Int, dead: Int) {
        self.pending = pending
        self.delivered = delivered
        self.dead = dead
    }
}

/// The answer to `POST /v1/webhooks`: the secret, shown this once, and the listing.
public struct CreatedWebhook: Codable, Hashable, Sendable {
    public var secret: String
    public var webhook: Webhook

    public init(secret: String, webhook: Webhook) {
        self.secret = secret
        self.webhook = webhook
    }
}

/// Where one delivery of one event to one webhook stands.
///
/// - `pending`: not delivered yet; being tried, or waiting for its retry.
/// - `delivered`: the receiver answered 2xx.
/// - `dead`: the attempt limit was reached without a 2xx; it is not tried again.
public enum WebhookDeliveryState: String, Codable, CaseIterable, Hashable, Sendable {
    case pending
    case delivered
    case dead
}

/// One event's delivery to one webhook (`GET /v1/webhooks/{id}/deliveries`).
public struct WebhookDelivery: Codable, Hashable, Sendable {
    /// The delivery's sequence number, also its place in the webhook's order.
    public var id: Int64
    public var webhookID: Int64
    public var eventID: Int64
    /// The event's scanner; absent for a tag's presence event.
    public var scannerID: ScannerID?
    /// The event's tag; absent for a scanner's presence event.
    public var tagID: Int64?
    public var kind: PresenceEventKind
    public var state: WebhookDeliveryState
    /// Attempts made so far.
    public var attempts: Int
    /// The HTTP status of the last attempt; absent when it got no answer.
    public var lastStatus: Int?
    /// Why the last attempt failed; absent once delivered or before the first attempt.
    public var lastError: String?
    /// When the last attempt was made; absent before the first.
    public var lastAttempt: Date?

    public init(
        id: Int64, webhookID: Int64, eventID: Int64, scannerID: ScannerID?, tagID: Int64? = nil, kind: PresenceEventKind,
        state: WebhookDeliveryState, attempts: Int, lastStatus: Int?, lastError: String?, lastAttempt: Date?
    ) {
        self.id = id
        self.webhookID = webhookID
        self.eventID = eventID
        self.scannerID = scannerID
        self.tagID = tagID
        self.kind = kind
        self.state = state
        self.attempts = attempts
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.lastAttempt = lastAttempt
    }
}

/// `GET /v1/integrations/webhooks`: every subscription with its counts, and the latest failed
/// attempts (dead deliveries, and pending ones that have failed at least once), newest first.
public struct WebhookIntegrationStatus: Codable, Hashable, Sendable {
    public var webhooks: [Webhook]
    public var recentFailures: [WebhookDelivery]

    public init(webhooks: [Webhook], recentFailures: [WebhookDelivery]) {
        self.webhooks = webhooks
        self.recentFailures = recentFailures
    }
}
