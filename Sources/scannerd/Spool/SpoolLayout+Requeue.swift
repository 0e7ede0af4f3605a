/// Putting refused batches back in line, for `scannerd spool requeue`.
extension SpoolLayout {
    /// Moves every batch in `rejected/` back to `ready/`, where the uploader sends it again in
    /// its old place in the order, and deletes the answer saved beside it. Returns the batches
    /// moved, oldest first. Run only while no scannerd uses the spool (the caller holds the state
    /// directory's lock).
    ///
    /// Throws when a directory cannot be read or a file cannot be moved; the batches moved until
    /// then stay moved, the others stay rejected, and running it again finishes the job.
    func requeueRejected() throws -> [BatchFileName] {
        let batches = try FileSystem.contents(ofDirectory: rejected).compactMap { BatchFileName(readyText: $0) }.sorted()
        for batch in batches {
            try FileSystem.rename(rejected(batch), to: ready(batch))
        }
        try FileSystem.syncDirectory(ready)
        for batch in batches {
            try FileSystem.remove(rejectionResponse(batch))
        }
        try FileSystem.syncDirectory(rejected)
        return batches
    }
}
