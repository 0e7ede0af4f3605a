/// The database was migrated by a newer switchd: it records migrations this version does not know.
/// This version's code was not written for that schema, and running its migrations on it could
/// lose what the newer one stored, so the store refuses to open and leaves the database as it is:
/// a downgrade stops at switchd's start with this message (docs/install-from-apt.md).
package struct NewerSchemaError: Error, Equatable, CustomStringConvertible {
    /// The applied migrations this version does not know, sorted.
    package let unknownMigrations: [String]

    package var description: String {
        "the database was migrated by a newer switchd (migrations this version does not know: "
            + unknownMigrations.joined(separator: ", ")
            + "); refusing to open it. Install the newer switchd again, or restore the backup made before upgrading to it"
    }

    /// Throws when `applied` holds an identifier that is not in `known` (this version's history).
    package static func check(applied: Set<String>, known: [String]) throws {
        let unknown = applied.subtracting(known)
        guard unknown.isEmpty else { throw NewerSchemaError(unknownMigrations: unknown.sorted()) }
    }
}
