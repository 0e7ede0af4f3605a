import GRDB

extension AppDatabase {
    /// The schema's history, in the order it shipped. Each migration runs frozen SQL only
    /// (``SchemaV1``, ``SchemaV2``, ``SchemaV3``, ``SchemaEvents``): a migration is never edited once shipped and
    /// never calls application code, so changing a record later cannot change what a fresh
    /// database is built as. Changes are new migrations; the identifiers are what existing
    /// databases recorded, so they never change either.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let history: [(identifier: String, sql: String)] = [
            ("v1-survey", SchemaV1.survey),
            ("v1-scanners-and-switches", SchemaV1.scannersAndSwitches),
            ("v1-measurements", SchemaV1.measurements),
            ("v2-beacons", SchemaV2.beacons),
            ("v2-links", SchemaV2.links),
            ("v2-positions", SchemaV2.positions),
            ("v2-survey-version", SchemaV2.surveyVersion),
            ("v3-floor-plans", SchemaV3.floorPlans),
            ("v3-tokens", SchemaV3.tokens),
            ("v4-events-and-webhooks", SchemaEvents.eventsAndWebhooks),
            ("v4-tags", SchemaTags.tags),
            ("v4-mqtt", SchemaMQTT.outbox),
            ("v4-georeference-and-allow-lists", SchemaSeedCompletions.georeferenceAndAllowLists),
            ("v4-tag-presence-events", SchemaTagPresence.missingTagEvents),
            ("v4-emitter-summary", SchemaEmitterSummary.emitterCells),
            ("v4-tag-events-in-presence", SchemaTagEventsInPresence.mergeTagEvents),
            ("v4-scanner-delete", SchemaScannerDelete.scannerDelete),
            ("v4-history-indexes", SchemaHistoryIndexes.indexes),
            ("v4-walk-survey", SchemaWalkSurvey.walks),
            ("v4-emitter-summary-by-batch", SchemaEmitterSummaryByBatch.dropInsertTrigger),
            ("v4-feed-ends", SchemaFeedEnds.feedEnds),
            ("v4-tag-position-window", SchemaTagPositionWindow.index),
            ("v4-tag-track", SchemaTagTrack.tracks),
            ("v4-mqtt-dead-letters", SchemaMQTTDeadLetters.deadLetters),
            ("v4-tags-in-presence", SchemaTagsInPresence.tagPresence),
            ("v4-mqtt-published-tags", SchemaMQTTPublishedTags.publishedTags),
            ("v4-visitor-tokens", SchemaVisitorTokens.visitorRole),
            ("v4-tag-keys", SchemaTagKeys.keys),
            ("v4-enrolment-codes", SchemaEnrolmentCodes.codes),
            ("v4-room-outlines", SchemaRoomOutlines.outlines),
            ("v4-scanner-health", SchemaScannerHealth.health),
            ("v5-tag-reference-points", SchemaTagReferences.references),
            ("v5-scanner-settings", SchemaScannerSettings.settings),
            ("v5-beacon-telemetry", SchemaBeaconTelemetry.telemetry),
            ("v5-feed-marks", SchemaFeedMarks.marks),
            ("v5-beacon-new-scanner", SchemaBeaconNewScanner.newScanner),
            ("v5-mqtt-bridge-status", SchemaMQTTBridgeStatus.status),
        ]
        for (identifier, sql) in history {
            migrator.registerMigration(identifier) { db in try db.execute(sql: sql) }
        }
        return migrator
    }
}
