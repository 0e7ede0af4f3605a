import Positioning
import ScanContract
import SwitchdStore

/// The ``Locator`` scannerd would build from switchd's current radio map (the one
/// ``RadioMapCache`` serves), built once per survey version. Each use starts from a copy, so no
/// request's track (the Kalman and room filters) reaches another.
actor LocatorCache {
    private let maps: RadioMapCache
    private var built: (version: SurveyVersion, locator: Locator)?

    init(maps: RadioMapCache) {
        self.maps = maps
    }

    /// A fresh locator on the current map.
    ///
    /// - Throws: what ``RadioMapCache/current(from:)`` throws.
    func current(from database: AppDatabase) async throws -> Locator {
        let entry = try await maps.current(from: database)
        if let built, built.version == entry.version { return built.locator }
        let locator = Locator(map: entry.map)
        built = (entry.version, locator)
        return locator
    }
}
