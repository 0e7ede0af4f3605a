/// ``SchemaEnrolmentCodes`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaEnrolmentCodes {
    static let codes = """
        CREATE TABLE enrolment_code (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            hash bytea NOT NULL UNIQUE CHECK (octet_length(hash) = 32),
            scanner_id text COLLATE "C" NOT NULL,
            name text COLLATE "C",
            created_ms bigint NOT NULL,
            expires_ms bigint NOT NULL,
            used_ms bigint,
            token_id bigint REFERENCES token(id)
        );
        """
}
