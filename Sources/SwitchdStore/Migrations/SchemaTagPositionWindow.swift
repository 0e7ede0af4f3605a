/// An index to find a tag's position at one window's end, as frozen SQL (see ``SchemaV1``).
enum SchemaTagPositionWindow {
    /// `tag_position_window`: storing a window's position first looks for one another instance
    /// stored for the same tag and window end (docs/scale-out.md, sightings and tag positions).
    /// Not unique: a database from before may hold two positions of one window (a replay that
    /// went back to a window the closer no longer remembered), and a migration does not delete
    /// feed rows; the feed's lock makes the look-up and the insert one step on both databases.
    /// Plain SQL both dialects read the same, so this one constant serves both.
    static let index = """
        CREATE INDEX tag_position_window ON tag_position(tag_id, time_ms);
        """
}
