import HummingbirdCore

/// Hummingbird's hook on the listening socket: it asks before each accept whether to accept,
/// and stops reading the socket (so new connections wait in the kernel's backlog) while the
/// answer is no. Counting and room-making are the ``ConnectionTable``'s.
struct ConnectionLimit: AvailableConnectionsDelegate {
    let table: ConnectionTable

    mutating func connectionOpened() { table.accepted() }
    mutating func connectionClosed() { table.released() }
    func isAcceptingNewConnections() -> Bool { table.hasRoom() }
}
