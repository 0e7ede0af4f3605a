/// Whose events a webhook subscription sends (``NewWebhook/subjects``).
///
/// - `scanners`: events that carry a `scannerID`: a scanner's presence, and `missingTagHeard`
///   (the scanner that heard the tag).
/// - `tags`: events that carry a `tagID`: a tag's presence, and `missingTagHeard`.
public enum WebhookSubject: String, Codable, CaseIterable, Hashable, Sendable {
    case scanners
    case tags
}

extension NewWebhook {
    /// Checks that `subjects`, when given, names at least one subject.
    public func validateSubjects() throws(ValidationError) {
        if let subjects, subjects.isEmpty {
            throw ValidationError(field: "subjects", reason: "must name at least one of scanners, tags, or be left out for both")
        }
    }
}
