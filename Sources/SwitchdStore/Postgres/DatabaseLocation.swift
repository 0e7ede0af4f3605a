import Foundation

/// Where switchd keeps its state: the SQLite file in its state folder (the default), or a
/// PostgreSQL database named by a `postgres://` URL (`--database`, docs/scale-out.md).
package enum DatabaseLocation: Equatable, Sendable {
    case sqlite(stateDirectory: String)
    case postgres(PostgresAddress)
}

/// A PostgreSQL server and database, read from a URL
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (also `postgresql://`). For a Unix socket,
/// leave HOST empty and give its folder as `?host=/run/postgresql` (peer authentication, no
/// password). The driver reads no libpq password file: a password goes in the URL, best in the
/// config file (readable by root and switchd only) rather than on the command line, which `ps` shows.
package struct PostgresAddress: Equatable, Sendable {
    package enum Endpoint: Equatable, Sendable {
        case tcp(host: String, port: Int)
        /// The folder holding the server's socket `.s.PGSQL.<port>`.
        case unixSocket(directory: String, port: Int)
    }

    package var endpoint: Endpoint
    package var user: String
    package var password: String?
    package var database: String

    /// PostgreSQL's port when a URL names none.
    package static let defaultPort = 5432

    /// Reads a `postgres://` URL.
    ///
    /// - Throws: ``DatabaseLocationError`` naming what is wrong: another scheme, no user, no
    ///   database, a bad port, both a host and `?host=`, or a query parameter it does not know.
    package init(url text: String) throws {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased() else {
            throw DatabaseLocationError("\"\(text)\" is not a URL; expected postgres://USER@HOST[:PORT]/DATABASE")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw DatabaseLocationError("\(scheme): is not a database switchd knows; expected postgres://USER@HOST[:PORT]/DATABASE")
        }
        guard let user = url.user, !user.isEmpty else {
            throw DatabaseLocationError("the URL names no user; expected postgres://USER@HOST[:PORT]/DATABASE")
        }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw DatabaseLocationError("the URL names no database (or more than one path segment); expected postgres://USER@HOST[:PORT]/DATABASE")
        }
        if let port = url.port, !(1 ... 65_535).contains(port) {
            throw DatabaseLocationError("port \(port) is not between 1 and 65535")
        }
        let port = url.port ?? Self.defaultPort
        var socketDirectory: String?
        for item in url.queryItems ?? [] {
            guard item.name == "host", let value = item.value, value.hasPrefix("/") else {
                throw DatabaseLocationError("unknown URL parameter \"\(item.name)\"; only host=/SOCKET/FOLDER is read")
            }
            socketDirectory = value
        }
        let host = url.host ?? ""
        switch (host.isEmpty, socketDirectory) {
        case (true, let directory?): endpoint = .unixSocket(directory: directory, port: port)
        case (false, nil): endpoint = .tcp(host: host, port: port)
        case (true, nil): throw DatabaseLocationError("the URL names no host; give HOST, or ?host=/SOCKET/FOLDER for a Unix socket")
        case (false, _?): throw DatabaseLocationError("the URL names both a host and ?host=; give one")
        }
        self.user = user
        password = url.password
        self.database = database
    }
}

/// A `--database` value switchd cannot use; the text says why.
package struct DatabaseLocationError: Error, CustomStringConvertible, Equatable {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
