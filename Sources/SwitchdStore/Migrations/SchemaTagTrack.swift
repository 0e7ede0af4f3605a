/// Each tag's smoothing track, as frozen SQL (see ``SchemaV1``).
enum SchemaTagTrack {
    /// `tag_track`: per tag, its Kalman filter's and room smoother's state and both before the
    /// last step (``Positioning/TagTrack/State`` as JSON), read and written in the transaction that
    /// stores the tag's next window position, so every instance smooths a tag with one track
    /// (docs/scale-out.md, sightings and tag positions). Deleting the tag deletes its track.
    static let tracks = """
        CREATE TABLE tag_track (
            tag_id INTEGER PRIMARY KEY NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            state TEXT NOT NULL
        );
        """
}
