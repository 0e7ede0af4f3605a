/// ``SchemaVisitorTokens`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaVisitorTokens {
    /// As ``SchemaVisitorTokens/visitorRole``: PostgreSQL replaces the role's check in place
    /// (named `token_role_check` by PostgreSQL when ``PostgresSchemaV3/tokens`` made it).
    static let visitorRole = """
        ALTER TABLE token DROP CONSTRAINT token_role_check;
        ALTER TABLE token ADD CONSTRAINT token_role_check CHECK (role IN ('admin', 'scanner', 'reader', 'visitor'));
        """
}
