/// How many stored phone keys did not open under this switchd's key file when last counted, so
/// the error is logged when that number changes, not on every long-poll of every scanner.
actor UnopenedKeys {
    private var last = 0

    /// Whether `count` differs from the number noted before; notes it.
    func noteChanged(to count: Int) -> Bool {
        defer { last = count }
        return count != last
    }
}
