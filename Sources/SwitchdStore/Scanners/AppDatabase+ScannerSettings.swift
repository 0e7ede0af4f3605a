import Foundation
import ScanContract

extension AppDatabase {
    /// The `scanner_settings` scope of the fleet's defaults.
    package static let fleetScope = "*"
    /// Held by the transactions that change settings, so two changes draw two revisions.
    static let scannerSettingsLock = "scanner-settings"
    /// Where a settings change is announced to every instance (PostgreSQL's NOTIFY), so their
    /// held long-polls read the settings again (``listenForSettingsChanges(listening:changed:)``).
    package static let settingsChannel = "floorscan_settings"

    /// Calls `changed` for each settings change committed by another instance (or this one),
    /// after `listening` says the listener is registered. Returns at once on SQLite.
    ///
    /// - Throws: when the listening connection cannot be made or drops.
    package func listenForSettingsChanges(listening: @Sendable () async -> Void, changed: @Sendable () async -> Void) async throws {
        guard case .postgres(let store) = backend else { return }
        try await store.listen(on: Self.settingsChannel, listening: listening) { _ in await changed() }
    }

    /// What switchd asks of `scanner`: the fleet's defaults overridden key by key by its own
    /// settings, and the larger of the two revisions; nil settings when neither sets a key, 0
    /// when neither was ever changed.
    package func requestedSettings(of scanner: ScannerID) async throws -> (settings: ScannerSettings?, revision: Int) {
        try await readStatements { sql in
            let fleet = try Self.storedSettings(of: Self.fleetScope, in: sql)
            let own = try Self.storedSettings(of: scanner.rawValue, in: sql)
            let merged = (own?.settings ?? ScannerSettings()).overriding(fleet?.settings ?? ScannerSettings())
            return (merged.isEmpty ? nil : merged, max(fleet?.revision ?? 0, own?.revision ?? 0))
        }
    }

    /// The fleet's defaults and their revision (0 and `{}` before the first change).
    package func fleetSettings() async throws -> FleetSettings {
        try await readStatements { sql in
            let fleet = try Self.storedSettings(of: Self.fleetScope, in: sql)
            return FleetSettings(settings: fleet?.settings ?? ScannerSettings(), settingsRevision: fleet?.revision ?? 0)
        }
    }

    /// Renames `scanner` and replaces its own settings, as `patch` says, in one transaction;
    /// settings that change draw a new revision. Returns the scanner and whether its settings
    /// changed.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for a bad name, an unknown or out-of-range
    ///   setting, or a window more than the interval once the fleet's defaults are under it;
    ///   ``StoreError/notFound(_:)`` for an unknown scanner. Nothing changes then.
    package func updateScanner(_ scanner: ScannerID, with patch: ScannerPatch) async throws -> (scanner: ScanContract.Scanner, settingsChanged: Bool) {
        try validate(patch.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.scannerSettingsLock)
            let id = StoreValue.text(scanner.rawValue)
            guard let found = try sql.row("SELECT id, name FROM scanner WHERE id = ?", [id]) else {
                throw StoreError.notFound("no scanner \(scanner)")
            }
            var row = try ScannerRecord(row: found).scanner()
            if let name = patch.name {
                try sql.execute("UPDATE scanner SET name = ? WHERE id = ?", [.text(name), id])
                row.name = name
            }
            guard let settings = patch.settings else { return (row, false) }
            let fleet = try Self.storedSettings(of: Self.fleetScope, in: sql)?.settings ?? ScannerSettings()
            try Self.checkMerged(settings.overriding(fleet), of: scanner.rawValue)
            let changed = try Self.store(settings, of: scanner.rawValue, in: sql)
            return (row, changed)
        }
    }

    /// Replaces the fleet's defaults; a change draws a new revision. Returns them and whether
    /// they changed.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for an unknown or out-of-range setting, or when
    ///   under some scanner's own settings the window would be more than the interval (naming it).
    package func updateFleetSettings(_ settings: ScannerSettings) async throws -> (fleet: FleetSettings, changed: Bool) {
        try validate(ScannerPatch(settings: settings).validate)
        return try await writeStatements { sql in
            try sql.lock(Self.scannerSettingsLock)
            for row in try sql.rows("SELECT scope, settings FROM scanner_settings WHERE scope <> ?", [.text(Self.fleetScope)]) {
                let scope = try row.string("scope")
                try Self.checkMerged(try Self.decodeSettings(try row.string("settings"), of: scope).overriding(settings), of: scope)
            }
            let changed = try Self.store(settings, of: Self.fleetScope, in: sql)
            let revision = try Self.storedSettings(of: Self.fleetScope, in: sql)?.revision ?? 0
            return (FleetSettings(settings: settings, settingsRevision: revision), changed)
        }
    }

    /// Clears a deleted scanner's own settings under a new revision, so a scanner registered
    /// again under the ID starts from the fleet's defaults and a revision it never saw.
    static func clearSettings(of scanner: ScannerID, in sql: any StoreTransaction) throws {
        guard try storedSettings(of: scanner.rawValue, in: sql) != nil else { return }
        try store(ScannerSettings(), of: scanner.rawValue, in: sql, force: true)
    }

    /// Window against interval, once merged: each alone may be in range and still disagree.
    private static func checkMerged(_ merged: ScannerSettings, of scope: String) throws {
        if let interval = merged.bleIntervalMs, let window = merged.bleWindowMs, window > interval {
            let whose = scope == fleetScope ? "the fleet's" : "scanner \(scope)'s"
            throw StoreError.invalidField(ValidationError(
                field: "settings.bleWindowMs",
                reason: "\(window) ms would be more than the interval of \(interval) ms in \(whose) settings (its own over the fleet's)"
            ))
        }
    }

    /// Stores `settings` for `scope` under the next revision unless they are what is stored;
    /// returns whether it stored them.
    private static func store(_ settings: ScannerSettings, of scope: String, in sql: any StoreTransaction, force: Bool = false) throws -> Bool {
        if !force, let current = try storedSettings(of: scope, in: sql), current.settings == settings { return false }
        if !force, settings.isEmpty, try storedSettings(of: scope, in: sql) == nil { return false }
        let next = (try sql.row("SELECT MAX(revision) AS latest FROM scanner_settings", [])?.optionalInt64("latest") ?? 0) + 1
        let text = String(decoding: try JSONCoding.encoder().encode(settings), as: UTF8.self)
        try sql.execute("""
            INSERT INTO scanner_settings (scope, settings, revision) VALUES (?, ?, ?)
            ON CONFLICT (scope) DO UPDATE SET settings = excluded.settings, revision = excluded.revision
            """, [.text(scope), .text(text), .integer(next)])
        try sql.notify(settingsChannel, scope)
        return true
    }

    static func storedSettings(of scope: String, in sql: any StoreTransaction) throws -> (settings: ScannerSettings, revision: Int)? {
        guard let row = try sql.row("SELECT settings, revision FROM scanner_settings WHERE scope = ?", [.text(scope)]) else { return nil }
        return (try decodeSettings(try row.string("settings"), of: scope), try row.int("revision"))
    }

    static func decodeSettings(_ text: String, of scope: String) throws -> ScannerSettings {
        do {
            return try JSONCoding.decoder().decode(ScannerSettings.self, from: Data(text.utf8))
        } catch {
            throw StoreError.corruptRow("the stored settings of \(scope) are not readable: \(error)")
        }
    }
}
