PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1-survey');
INSERT INTO grdb_migrations VALUES('v1-scanners-and-switches');
INSERT INTO grdb_migrations VALUES('v1-measurements');
INSERT INTO grdb_migrations VALUES('v2-beacons');
INSERT INTO grdb_migrations VALUES('v2-links');
INSERT INTO grdb_migrations VALUES('v2-positions');
INSERT INTO grdb_migrations VALUES('v2-survey-version');
INSERT INTO grdb_migrations VALUES('v3-floor-plans');
INSERT INTO grdb_migrations VALUES('v3-tokens');
CREATE TABLE floor (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    building TEXT NOT NULL,
    name TEXT NOT NULL,
    level INTEGER NOT NULL
, metres_per_pixel REAL, origin_x REAL, origin_y REAL);
INSERT INTO floor VALUES(1,'north','Ground',0,0.050000000000000002775,1.0,2.0);
INSERT INTO floor VALUES(2,'north','First',1,NULL,NULL,NULL);
CREATE TABLE room (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
    name TEXT NOT NULL
);
INSERT INTO room VALUES(1,1,'Lab');
INSERT INTO room VALUES(2,2,'Stairwell');
CREATE TABLE location (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room_id INTEGER NOT NULL REFERENCES room(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    x REAL NOT NULL,
    y REAL NOT NULL
);
INSERT INTO location VALUES(1,1,'2.5,3',2.5,3.0);
INSERT INTO location VALUES(2,2,'landing',4.0,1.0);
CREATE TABLE scanner (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL
);
INSERT INTO scanner VALUES('default','default');
INSERT INTO scanner VALUES('pi-lab','Lab Pi');
CREATE TABLE switch_revision (
    scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL CHECK (revision >= 1),
    scanning INTEGER NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('survey', 'locate')),
    room_id INTEGER REFERENCES room(id) ON DELETE SET NULL,
    location_id INTEGER REFERENCES location(id) ON DELETE SET NULL,
    store_data INTEGER NOT NULL,
    stop_after_scans INTEGER,
    stop_after_seconds REAL,
    changed_ms INTEGER NOT NULL,
    scans_completed INTEGER NOT NULL DEFAULT 0,
    stopped_by TEXT CHECK (stopped_by IN ('turnedOff', 'stopCondition')),
    PRIMARY KEY (scanner_id, revision)
);
INSERT INTO switch_revision VALUES('default',1,0,'locate',NULL,NULL,0,NULL,NULL,1795464470636,0,NULL);
INSERT INTO switch_revision VALUES('pi-lab',1,0,'locate',NULL,NULL,0,NULL,NULL,1795464471277,0,NULL);
INSERT INTO switch_revision VALUES('pi-lab',2,1,'survey',1,1,1,NULL,NULL,1795464471286,1,NULL);
INSERT INTO switch_revision VALUES('pi-lab',3,0,'survey',1,1,1,NULL,NULL,1795464471403,0,'turnedOff');
CREATE TABLE batch (
    id INTEGER PRIMARY KEY,
    uuid BLOB NOT NULL UNIQUE,
    scanner_id TEXT NOT NULL REFERENCES scanner(id),
    revision INTEGER NOT NULL,
    received_ms INTEGER NOT NULL,
    stored INTEGER NOT NULL,
    discarded INTEGER NOT NULL
);
INSERT INTO batch VALUES(1,X'1b4e28ba2fa141d2883f0016d3cca427','pi-lab',2,1795464471298,2,0);
CREATE TABLE measurement (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid BLOB NOT NULL UNIQUE,
    batch_id INTEGER NOT NULL REFERENCES batch(id),
    scanner_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('survey', 'locate')),
    room_id INTEGER REFERENCES room(id) ON DELETE CASCADE,
    location_id INTEGER REFERENCES location(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('wifi', 'ble')),
    time_ms INTEGER NOT NULL,
    rssi INTEGER NOT NULL,
    scan INTEGER NOT NULL,
    address INTEGER NOT NULL,
    ssid TEXT,
    frequency_mhz INTEGER,
    beacon_uuid BLOB,
    major INTEGER,
    minor INTEGER,
    tx_power INTEGER
);
INSERT INTO measurement VALUES(1,X'8a1c2f705b7b4c369e0a2b7b1d3e0001',1,'pi-lab',2,'survey',1,1,'wifi',1795330200123,-61,0,2199023255808,'floorscan-lab',2412,NULL,NULL,NULL,NULL);
INSERT INTO measurement VALUES(2,X'8a1c2f705b7b4c369e0a2b7b1d3e0002',1,'pi-lab',2,'survey',1,1,'ble',1795330200456,-72,0,212205442170881,NULL,NULL,X'f7826da64fa24e988024bc5b71e0893e',1,2,-59);
CREATE TABLE beacon (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid BLOB NOT NULL,
    major INTEGER NOT NULL CHECK (major BETWEEN 0 AND 65535),
    minor INTEGER NOT NULL CHECK (minor BETWEEN 0 AND 65535),
    floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
    x REAL NOT NULL,
    y REAL NOT NULL,
    z REAL NOT NULL,
    measured_power INTEGER NOT NULL,
    metadata TEXT NOT NULL
);
INSERT INTO beacon VALUES(1,X'f7826da64fa24e988024bc5b71e0893e',1,2,1,1.0,1.0,2.5,-59,'{"label":"door"}');
CREATE TABLE link (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    from_id INTEGER NOT NULL REFERENCES location(id) ON DELETE CASCADE,
    to_id INTEGER NOT NULL REFERENCES location(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('walk', 'stairs', 'lift')),
    distance_metres REAL NOT NULL CHECK (distance_metres > 0),
    CHECK (from_id <> to_id)
);
INSERT INTO link VALUES(1,1,2,'stairs',6.5);
CREATE TABLE position (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
    time_ms INTEGER NOT NULL,
    building TEXT NOT NULL,
    floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
    x REAL NOT NULL,
    y REAL NOT NULL,
    room_id INTEGER REFERENCES room(id) ON DELETE SET NULL,
    nearest_location_id INTEGER REFERENCES location(id) ON DELETE SET NULL,
    accuracy_metres REAL NOT NULL CHECK (accuracy_metres >= 0),
    method TEXT NOT NULL,
    beacons TEXT -- JSON array of BeaconSighting, or NULL when not reported
);
INSERT INTO position VALUES(1,'pi-lab',1795330260000,'north',1,2.3999999999999999111,3.1000000000000000888,1,1,1.5,'wifi-knn','[{"minor":2,"uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","rssi":-72.5,"major":1,"distanceMetres":2.1,"samples":3,"proximity":"near"}]');
CREATE TABLE survey_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    token TEXT NOT NULL,
    version INTEGER NOT NULL
);
INSERT INTO survey_version VALUES(1,'cee3fabe-663f-4af5-a24e-ec0b4327c194',7);
CREATE TABLE floor_plan (
    floor_id INTEGER PRIMARY KEY NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
    format TEXT NOT NULL CHECK (format IN ('png', 'jpeg', 'svg')),
    image BLOB NOT NULL,
    updated_ms INTEGER NOT NULL
);
INSERT INTO floor_plan VALUES(1,'svg',X'3c73766720786d6c6e733d22687474703a2f2f7777772e77332e6f72672f323030302f737667222077696474683d22313022206865696768743d223130222f3e',1795464471215);
CREATE TABLE token (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'scanner', 'reader')),
    scanner_id TEXT CHECK ((role = 'scanner') = (scanner_id IS NOT NULL)),
    hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
    created_ms INTEGER NOT NULL,
    revoked_ms INTEGER
);
INSERT INTO token VALUES(1,'admin (first start)','admin',NULL,X'e78a80ed0e9b412cb710df1187d3f61a9bb1cab0fefb19e13cd18ffe32378fac',1795464470684,NULL);
INSERT INTO token VALUES(2,'wall display','reader',NULL,X'ab9916e4cad7982ecaa3d268ddc2acb8594bdbbf42bbd324e48d638500af0989',1795464471383,1795464471393);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('token',2);
INSERT INTO sqlite_sequence VALUES('floor',2);
INSERT INTO sqlite_sequence VALUES('room',2);
INSERT INTO sqlite_sequence VALUES('location',2);
INSERT INTO sqlite_sequence VALUES('link',1);
INSERT INTO sqlite_sequence VALUES('beacon',1);
INSERT INTO sqlite_sequence VALUES('measurement',2);
INSERT INTO sqlite_sequence VALUES('position',1);
CREATE INDEX room_floor ON room(floor_id);
CREATE INDEX location_room ON location(room_id);
CREATE INDEX switch_revision_room ON switch_revision(room_id);
CREATE INDEX switch_revision_location ON switch_revision(location_id);
CREATE INDEX measurement_location ON measurement(location_id);
CREATE INDEX measurement_room ON measurement(room_id);
CREATE UNIQUE INDEX beacon_identity ON beacon(uuid, major, minor);
CREATE INDEX beacon_floor ON beacon(floor_id);
CREATE UNIQUE INDEX link_pair ON link(min(from_id, to_id), max(from_id, to_id));
CREATE INDEX link_to ON link(to_id);
CREATE INDEX position_scanner_time ON position(scanner_id, time_ms);
CREATE INDEX position_floor ON position(floor_id);
CREATE INDEX position_room ON position(room_id);
CREATE INDEX position_location ON position(nearest_location_id);
CREATE TRIGGER survey_version_floor_updated AFTER UPDATE OF building, level ON floor
WHEN OLD.building IS NOT NEW.building OR OLD.level IS NOT NEW.level BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_floor_inserted AFTER INSERT ON floor BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_floor_deleted AFTER DELETE ON floor BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_room_updated AFTER UPDATE OF floor_id ON room
WHEN OLD.floor_id IS NOT NEW.floor_id BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_location_updated AFTER UPDATE OF room_id, x, y ON location
WHEN OLD.room_id IS NOT NEW.room_id OR OLD.x IS NOT NEW.x OR OLD.y IS NOT NEW.y BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_location_inserted AFTER INSERT ON location BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_location_deleted AFTER DELETE ON location BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_beacon_updated AFTER UPDATE OF uuid, major, minor, floor_id, x, y, z, measured_power, metadata ON beacon
WHEN OLD.uuid IS NOT NEW.uuid OR OLD.major IS NOT NEW.major OR OLD.minor IS NOT NEW.minor OR OLD.floor_id IS NOT NEW.floor_id OR OLD.x IS NOT NEW.x OR OLD.y IS NOT NEW.y OR OLD.z IS NOT NEW.z OR OLD.measured_power IS NOT NEW.measured_power OR OLD.metadata IS NOT NEW.metadata BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_beacon_inserted AFTER INSERT ON beacon BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_beacon_deleted AFTER DELETE ON beacon BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_readings_stored AFTER UPDATE OF stored ON batch
WHEN NEW.stored > OLD.stored AND EXISTS (
    SELECT 1 FROM switch_revision
    WHERE scanner_id = NEW.scanner_id AND revision = NEW.revision AND mode = 'survey'
)
BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER survey_version_reading_deleted AFTER DELETE ON measurement
WHEN OLD.mode = 'survey' AND OLD.location_id IS NOT NULL
BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
COMMIT;
