/// A position in the scanner list, which is ordered by scanner ID: the ID of the last scanner
/// already seen (so its form is a scanner ID's, `^[A-Za-z0-9._-]{1,64}$`, as docs/openapi.yaml
/// says). Clients pass `nextCursor` back unchanged; any scanner ID is a position, registered or
/// not, so a page never fails because its scanner was deleted meanwhile.
public struct KeyCursor: Hashable, Sendable {
    /// The key of the last item already seen.
    public let afterKey: String

    public init(afterKey: String) {
        self.afterKey = afterKey
    }

    public var token: String {
        afterKey
    }

    /// Reads a scanner ID.
    ///
    /// - Throws: for text that is not one (empty, longer than 64, or another character).
    public init(token: String) throws(FieldError) {
        do {
            afterKey = try ScannerID(token).rawValue
        } catch {
            throw FieldError("is not a cursor (a scanner ID, the nextCursor of a page)")
        }
    }
}
