/// The one `survey_version` row (see ``SchemaV2/surveyVersion``), read as a ``SurveyVersion``.
enum SurveyVersionRecord {
    /// - Throws: ``StoreError/corruptRow(_:)`` when the row is missing.
    static func current(_ sql: any StoreTransaction) throws -> SurveyVersion {
        guard let row = try sql.row("SELECT token, version FROM survey_version WHERE id = 1", []) else {
            throw StoreError.corruptRow("survey_version has no row")
        }
        return SurveyVersion(token: try row.string("token"), version: try row.int64("version"))
    }

    /// A new version, for a change the radio map depends on that no trigger sees.
    static func bump(_ sql: any StoreTransaction) throws {
        try sql.execute("UPDATE survey_version SET version = version + 1 WHERE id = 1", [])
    }
}

/// The survey version: which state of the survey a radio map was built from.
package struct SurveyVersion: Hashable, Sendable {
    /// Random per database file.
    package var token: String
    /// Bumped by triggers on every change the radio map depends on (by the store itself for
    /// walks placed and outlines, ``SurveyVersionRecord/bump(_:)``).
    package var version: Int64

    package init(token: String, version: Int64) {
        self.token = token
        self.version = version
    }

    /// A strong ETag: equal exactly when the map is built from the same survey state.
    package var entityTag: String { "\"\(token)-\(version)\"" }
}
