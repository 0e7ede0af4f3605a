/// ``SchemaV3`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaV3 {
    static let floorPlans = """
        ALTER TABLE floor ADD COLUMN metres_per_pixel double precision;
        ALTER TABLE floor ADD COLUMN origin_x double precision;
        ALTER TABLE floor ADD COLUMN origin_y double precision;
        CREATE TABLE floor_plan (
            floor_id bigint PRIMARY KEY NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            format text COLLATE "C" NOT NULL CHECK (format IN ('png', 'jpeg', 'svg')),
            image bytea NOT NULL,
            updated_ms bigint NOT NULL
        );
        """

    /// SQLite's `length` of a blob is `octet_length` of a `bytea`.
    static let tokens = """
        CREATE TABLE token (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text COLLATE "C" NOT NULL,
            role text COLLATE "C" NOT NULL CHECK (role IN ('admin', 'scanner', 'reader')),
            scanner_id text COLLATE "C" CHECK ((role = 'scanner') = (scanner_id IS NOT NULL)),
            hash bytea NOT NULL UNIQUE CHECK (octet_length(hash) = 32),
            created_ms bigint NOT NULL,
            revoked_ms bigint
        );
        """
}
