/// Whose events a webhook subscription sends (``NewWebhook/subjects``).
///
/// - `scanners`: events that carry a `scannerID`: a scanner's presence, and `missingTagHeard`
///   (the scanner that heard the tag).
/// - `tags`: events that carry a `tagID`: a tag's presence, `missingTagHeard`, a tag's `batteryLow`.
/// - `beacons`: events that carry a `beaconID`: a beacon's `batteryLow`.
public enum WebhookSubject: String, Codable, CaseIterable, Hashable, Sendable {
    case scanners
    case tags
    case beacons
}

extension NewWebhook {
    /// Checks that `subjects`, when given, names at least one subject.
    public func validateSubjects() throws(ValidationError) {
        if let subjects, subjects.isEmpty {
            throw ValidationError(field: "subjects", reason: "must name at least one of scanners, tags, beacons, or be left out for all")
        }
    }
}
