import Foundation
import Positioning
import ScanContract
import SwitchdStore

/// The last radio map built, as a value (for ``LocatorCache``) and as encoded JSON, with its
/// survey version, so repeated requests for an unchanged survey cost one small read. Built once
/// in ``buildRouter(settings:database:hub:feeds:)`` and shared by `/v1/radiomap` and `/v1/locate`.
actor RadioMapCache {
    struct Entry: Sendable {
        var version: SurveyVersion
        var map: RadioMap
        var json: Data
    }

    private var entry: Entry?

    /// The map of the survey as stored now: the cached one while the survey version is
    /// unchanged, else a new one built and kept.
    ///
    /// - Throws: what ``AppDatabase/radioMap()`` throws; the cache then keeps what it had.
    func current(from database: AppDatabase) async throws -> Entry {
        let version = try await database.surveyVersion()
        if let entry, entry.version == version { return entry }
        let (map, builtVersion) = try await database.radioMap()
        let built = Entry(version: builtVersion, map: map, json: try JSONCoding.encoder().encode(map))
        // Two requests may build at once; keep the newer.
        if entry.map({ $0.version.version < built.version.version || $0.version.token != built.version.token }) ?? true {
            entry = built
        }
        return built
    }
}
