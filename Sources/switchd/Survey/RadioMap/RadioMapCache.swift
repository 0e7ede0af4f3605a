import Foundation
import Positioning
import ScanContract
import SwitchdStore

/// The last radio map built, as a value (for ``LocatorCache``) and as encoded JSON, with its
/// survey version, so repeated requests for an unchanged survey cost one small read. Built once
/// in ``buildRouter(_:hub:mqtt:mqttOutbox:connections:policy:)`` and shared by `/v1/radiomap` and `/v1/locate`.
///
/// The locations' expected errors are not computed here: each new survey version is handed to
/// ``ExpectedErrorEstimates``, and the map carries the last finished estimate while its surveyed
/// locations are those the estimate was made for, else none; a request never waits for one.
actor RadioMapCache {
    struct Entry: Sendable {
        var version: SurveyVersion
        var map: RadioMap
        var json: Data
        /// The survey version whose expected errors the map carries; nil when it carries none.
        var estimatedFrom: SurveyVersion?

        /// A strong ETag: the survey version's, plus the estimate's version once the map carries
        /// one, so that a client holding the map without expected errors fetches it again with them.
        var entityTag: String {
            guard let estimatedFrom else { return version.entityTag }
            return "\"\(version.token)-\(version.version)-e\(estimatedFrom.version)\""
        }
    }

    /// The map of the survey version last read, without expected errors.
    private struct Plain {
        var version: SurveyVersion
        var map: RadioMap
        var surveyed: SurveyedLocations
    }

    let estimates: ExpectedErrorEstimates
    private var plain: Plain?
    private var entry: Entry?

    init(estimates: ExpectedErrorEstimates = ExpectedErrorEstimates()) {
        self.estimates = estimates
    }

    /// The map of the survey as stored now: the cached one while the survey version and the
    /// estimate it can carry are unchanged, else a new one built and kept.
    ///
    /// - Throws: what ``AppDatabase/radioMap()`` throws; the cache then keeps what it had.
    func current(from database: AppDatabase) async throws -> Entry {
        let version = try await database.surveyVersion()
        let plain: Plain
        if let known = self.plain, known.version == version {
            plain = known
        } else {
            let (map, builtVersion) = try await database.radioMap()
            plain = Plain(version: builtVersion, map: map, surveyed: SurveyedLocations(map))
            // Two requests may build at once; keep the newer.
            if self.plain.map({ Self.isOlder($0.version, than: builtVersion) }) ?? true { self.plain = plain }
        }
        await estimates.request(plain.map, version: plain.version)
        // An estimate that rates no location leaves the map as it is, and so its ETag.
        let estimate = await estimates.latest.flatMap { $0.locations == plain.surveyed && !$0.errors.isEmpty ? $0 : nil }
        if let entry, entry.version == plain.version, entry.estimatedFrom == estimate?.version { return entry }
        var map = plain.map
        if let estimate {
            for index in map.locations.indices { map.locations[index].expectedError = estimate.errors[map.locations[index].locationID] }
        }
        let built = Entry(version: plain.version, map: map, json: try JSONCoding.encoder().encode(map), estimatedFrom: estimate?.version)
        if entry.map({ Self.isOlder($0.version, than: built.version) || ($0.version == built.version && built.estimatedFrom != nil) }) ?? true {
            entry = built
        }
        return built
    }

    /// True when `version` is of another database or older than `newer`.
    private static func isOlder(_ version: SurveyVersion, than newer: SurveyVersion) -> Bool {
        version.token != newer.token || version.version < newer.version
    }
}
