#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `POST /v1/webhooks`: where to send presence events, signed with which secret, and which kinds.
public struct NewWebhook: Codable, Hashable, Sendable {
    /// An absolute `http` or `https` URL (``WebhookURL`` says what is accepted). Deliveries go to
    /// exactly this URL; redirects are not followed.
    public var url: String
    /// A Standard Webhooks secret, `whsec_` and the base64 of 24 to 64 random bytes; switchd makes
    /// one when left out. The signing key is the decoded bytes.
    public var secret: String?
    /// The kinds to send; all of them when left out.
    public var events: [PresenceEventKind]?
    /// Whose events to send (``WebhookSubject``); scanners' and tags' when left out.
    public var subjects: [WebhookSubject]?

    public init(url: String, secret: String? = nil, events: [PresenceEventKind]? = nil, subjects: [WebhookSubject]? = nil) {
        self.url = url
        self.secret = secret
        self.events = events
        self.subjects = subjects
    }

    public static let maxURLLength = WebhookURL.maxLength
    public static let secretPrefix = "whsec_"
    public static let secretKeyBytes = 24...64

    /// Checks the URL, the secret's form and that `events`, when given, names at least one kind.
    public func validate() throws(ValidationError) {
        do {
            _ = try WebhookURL(url)
        } catch {
            throw ValidationError(field: "url", error)
        }
        if let secret, Self.signingKey(of: secret) == nil {
            throw ValidationError(
                field: "secret",
                reason: "must be \(Self.secretPrefix) followed by the base64 of \(Self.secretKeyBytes.lowerBound) to \(Self.secretKeyBytes.upperBound) bytes"
            )
        }
        if let events, events.isEmpty {
            throw ValidationError(field: "events", reason: "must name at least one kind (entered, left, away, back), or be left out for all")
        }
    }

    /// The HMAC key a Standard Webhooks secret stands for: the bytes after `whsec_`; nil when the
    /// text is not such a secret.
    public static func signingKey(of secret: String) -> [UInt8]? {
        guard secret.hasPrefix(secretPrefix), let bytes = Data(base64Encoded: String(secret.dropFirst(secretPrefix.count))),
              secretKeyBytes.contains(bytes.count) else { return nil }
        return Array(bytes)
    }
}
