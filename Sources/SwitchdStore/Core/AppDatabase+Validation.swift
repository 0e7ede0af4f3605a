import ScanContract

extension AppDatabase {
    /// Runs a `New…` type's own check, as a store error.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` with what the check refused.
    func validate(_ check: () throws(ValidationError) -> Void) throws {
        do {
            try check()
        } catch {
            throw StoreError.invalidField(error)
        }
    }
}
