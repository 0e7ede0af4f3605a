import GRDB
import GRDBSQLite

/// Copies the write-ahead log back into the database file on a connection of its own, so that
/// no commit waits for that copy.
///
/// Left to SQLite, the commit that grows the WAL past 1,000 pages copies every page back into
/// the database file and syncs it before returning: with a thousand scanners uploading, about
/// once a second, and whichever write it falls on (a switch flip's among them) waits that much
/// longer. With a checkpointer, every connection of the pool reports the WAL's size after each
/// commit (`sqlite3_wal_hook`, which also turns SQLite's automatic checkpoint off on that
/// connection); past ``threshold`` pages it wakes ``run(onCheckpoint:)``, which makes a passive
/// checkpoint on its own connection: it copies what no reader still needs without waiting for
/// readers or for the writer, and once everything is copied the next commit starts the WAL over.
/// Durability is unchanged: a commit is synced into the WAL before it returns, as before.
///
/// Nothing is checkpointed while `run` is not running: the WAL then grows until the last
/// connection closes (SQLite checkpoints it then).
package final class WALCheckpointer: Sendable {
    /// WAL pages past which a checkpoint is made: SQLite's own default.
    package static let defaultThreshold = 1_000

    let path: String
    let threshold: Int
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init(path: String, threshold: Int = defaultThreshold) {
        self.path = path
        self.threshold = threshold
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Installs the commit hook on `db`'s connection. The hook holds no reference: the pool's
    /// configuration holds the checkpointer as long as any of its connections lives.
    func watch(_ db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, _, _, pages in
            guard let context else { return SQLITE_OK }
            Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(walPages: Int(pages))
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func committed(walPages: Int) {
        if walPages >= threshold { wake.yield() }
    }

    /// Opens a connection of its own and makes a passive checkpoint each time a commit leaves
    /// the WAL past ``threshold`` pages (wakes that come during a checkpoint make one more),
    /// until the calling task is cancelled. `onCheckpoint` gets each checkpoint's outcome: the
    /// WAL's frames and how many of them are now in the database file, or the error (a failed
    /// checkpoint loses nothing: the pages stay in the WAL for the next one).
    ///
    /// - Throws: when the connection cannot be opened.
    package func run(onCheckpoint: @Sendable (Result<(walFrames: Int, checkpointed: Int), any Error>) -> Void) async throws {
        let connection = try DatabaseQueue(path: path)
        for await _ in wakes {
            if Task.isCancelled { break }
            do {
                let outcome = try await connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
                onCheckpoint(.success((outcome.walFrameCount, outcome.checkpointedFrameCount)))
            } catch {
                onCheckpoint(.failure(error))
            }
        }
    }
}
