import ScanContract

extension AppRequestContext {
    /// For routes whose body names the scanner (``AccessRule/ScannerBinding/body``): a scanner
    /// token may only speak for its own scanner.
    ///
    /// - Throws: ``APIError`` 403 `forbidden` when the caller may not act for `scanner`, 401 when
    ///   no token was checked (the route is wrongly marked open: fail closed).
    func requireMayActFor(_ scanner: ScannerID) throws {
        guard let principal else {
            throw APIError.unauthorized("this needs a bearer token: send Authorization: Bearer <token>", invalidToken: false)
        }
        guard principal.mayActFor(scanner) else {
            throw APIError.forbidden(principal, actingFor: scanner.rawValue)
        }
    }
}
