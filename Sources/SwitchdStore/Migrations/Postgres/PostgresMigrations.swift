import Foundation

/// The schema's history in PostgreSQL's dialect: the identifiers of ``AppDatabase/migrator``, in
/// its order, each with its frozen PostgreSQL SQL (docs/scale-out.md, "Migrations"). A migration
/// added to the SQLite history is added here in the same commit; `PostgresMigrationTests` fails
/// until it is.
package enum PostgresMigrations {
    /// The table a PostgreSQL database records its applied identifiers in.
    package static let recordTable = "floorscan_migrations"

    /// Makes ``recordTable`` when it is missing: each applied identifier, in the order applied.
    package static let createRecordTable = """
        CREATE TABLE IF NOT EXISTS \(recordTable) (
            applied_order bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            identifier text COLLATE "C" NOT NULL UNIQUE
        )
        """

    package static let history: [(identifier: String, sql: String)] = [
        ("v1-survey", PostgresSchemaV1.survey),
        ("v1-scanners-and-switches", PostgresSchemaV1.scannersAndSwitches),
        ("v1-measurements", PostgresSchemaV1.measurements),
        ("v2-beacons", PostgresSchemaV2.beacons),
        ("v2-links", PostgresSchemaV2.links),
        ("v2-positions", PostgresSchemaV2.positions),
        ("v2-survey-version", PostgresSchemaV2.surveyVersion),
        ("v3-floor-plans", PostgresSchemaV3.floorPlans),
        ("v3-tokens", PostgresSchemaV3.tokens),
        ("v4-events-and-webhooks", PostgresSchemaV4.eventsAndWebhooks),
        ("v4-tags", PostgresSchemaV4.tags),
        ("v4-mqtt", PostgresSchemaV4.mqttOutbox),
        ("v4-georeference-and-allow-lists", PostgresSchemaV4.georeferenceAndAllowLists),
        ("v4-tag-presence-events", PostgresSchemaV4.missingTagEvents),
        ("v4-emitter-summary", PostgresSchemaEmitterSummary.emitterCells),
        // Written in the dialect both databases speak, so this one frozen SQL serves both.
        ("v4-tag-events-in-presence", SchemaTagEventsInPresence.mergeTagEvents),
        ("v4-scanner-delete", PostgresSchemaScannerDelete.scannerDelete),
        // Common dialect too: plain and partial indexes read the same in both.
        ("v4-history-indexes", SchemaHistoryIndexes.indexes),
        ("v4-walk-survey", PostgresSchemaWalkSurvey.walks),
        ("v4-emitter-summary-by-batch", PostgresSchemaEmitterSummaryByBatch.dropInsertTrigger),
        ("v4-feed-ends", PostgresSchemaFeedEnds.feedEnds),
        // Common dialect: a plain index.
        ("v4-tag-position-window", SchemaTagPositionWindow.index),
        ("v4-tag-track", PostgresSchemaTagTrack.tracks),
        ("v4-mqtt-dead-letters", PostgresSchemaMQTTDeadLetters.deadLetters),
        ("v4-tags-in-presence", PostgresSchemaTagsInPresence.tagPresence),
        ("v4-mqtt-published-tags", PostgresSchemaMQTTPublishedTags.publishedTags),
        ("v4-visitor-tokens", PostgresSchemaVisitorTokens.visitorRole),
        ("v4-tag-keys", PostgresSchemaTagKeys.keys),
        ("v4-enrolment-codes", PostgresSchemaEnrolmentCodes.codes),
        ("v4-room-outlines", PostgresSchemaRoomOutlines.outlines),
        ("v4-scanner-health", PostgresSchemaScannerHealth.health),
        ("v5-tag-reference-points", PostgresSchemaTagReferences.references),
        ("v5-scanner-settings", PostgresSchemaScannerSettings.settings),
        ("v5-beacon-telemetry", PostgresSchemaBeaconTelemetry.telemetry),
        ("v5-feed-marks", PostgresSchemaFeedMarks.marks),
        ("v5-beacon-new-scanner", PostgresSchemaBeaconNewScanner.newScanner),
        ("v5-mqtt-bridge-status", PostgresSchemaMQTTBridgeStatus.status),
    ]

    /// The statements of a migration, one by one: PostgresNIO sends each query as a prepared
    /// statement, which holds one command. Splits at each `;` outside quotes (`'…'`), dollar
    /// quotes (`$$…$$`, the migrations' function bodies) and `--` comments; empty ones are left out.
    package static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var inQuote = false
        var inDollarQuote = false
        var inComment = false
        var previous: Character?
        for character in sql {
            defer { previous = character }
            if inComment {
                if character == "\n" { inComment = false }
                current.append(character)
                continue
            }
            switch character {
            case "'" where !inDollarQuote: inQuote.toggle()
            case "$" where !inQuote && previous == "$": inDollarQuote.toggle()
            case "-" where !inQuote && !inDollarQuote && previous == "-": inComment = true
            case ";" where !inQuote && !inDollarQuote:
                statements.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        statements.append(current)
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}
