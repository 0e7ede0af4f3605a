import Crypto
import Foundation
import Hummingbird
import Logging
import ScanContract
import SwitchdStore

/// Adding a Pi in one step (docs/raspberry-pi.md): an admin asks for a one-time code for a
/// scanner (`POST /v1/enrolments`, registering the scanner when it is new); the Pi sends the code
/// (`POST /v1/enrol`, `scannerd enrol URL CODE`) and gets that scanner's token back, once.
///
/// A code is 60 random bits, kept only as its SHA-256, used once, and ends after 60 s to a day
/// (15 minutes unless asked). Redemptions are throttled as failed authentications are, from the
/// same ``FailedAuthThrottle``: a wrong, used or expired code counts as a failure of the address,
/// and an address over the limit gets 429 for every code until its window ends, so codes cannot
/// be guessed faster than ten a minute per address. Codes are never logged.
struct EnrolmentController {
    let database: AppDatabase
    let throttle: FailedAuthThrottle
    let metrics: SwitchdMetrics
    let wallClock: WallClock
    /// Shown with each code when switchd serves HTTPS (``TLSFiles/publicKeyPin()``).
    let tlsPin: String?

    func addRoutes(to routes: Routes) {
        routes.post("/v1/enrolments", .admin, use: create)
        // The code is the credential (docs/raspberry-pi.md): no token; wrong codes are throttled here.
        routes.post("/v1/enrol", .open, use: enrol)
        routes.allowOnly([.post], on: "/v1/enrolments")
        routes.allowOnly([.post], on: "/v1/enrol")
    }

    /// 201 ``EnrolmentCode``: the only time the code is shown. 422 for a bad scanner ID, name or
    /// expiry.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewEnrolmentCode.self, context: context)
        try new.validate()
        let code = EnrolmentCodeText.format(randomBytes: SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        let (registered, expires) = try await database.createEnrolmentCode(
            new, hash: Self.hash(try EnrolmentCodeText.normalised(code)), at: wallClock.now()
        )
        context.logger.info("Enrolment code made", metadata: [
            "scanner": "\(new.scannerID)", "registered": "\(registered)", "expiresInSeconds": "\(new.effectiveExpiry)",
        ])
        return try .json(EnrolmentCode(code: code, scannerID: new.scannerID, scannerRegistered: registered, expires: expires, pin: tlsPin), status: .created)
    }

    /// 201 ``Enrolment`` with a new scanner token. 422 for text that is not a code; 403
    /// `enrolment_refused` saying whether the code is unknown, used or expired, or its scanner
    /// deleted (nothing issued); 429 while the address is throttled.
    @Sendable func enrol(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let wait = throttle.retryAfter(for: context.clientAddress) {
            metrics.authThrottled.increment()
            throw APIError.tooManyFailedAuthentications(retryAfter: wait)
        }
        let sent = try await request.decodeJSON(EnrolmentRequest.self, context: context)
        let code = try EnrolmentCodeText.normalised(sent.code)
        let token = BearerToken.generate()
        let outcome = try await database.redeemEnrolmentCode(hash: Self.hash(code), tokenHash: token.hash.bytes, at: wallClock.now())
        let refusal: String
        switch outcome {
        case .enrolled(let info):
            guard let scannerID = info.scannerID else { throw StoreError.corruptRow("an enrolment issued a token without a scanner") }
            context.logger.notice("Scanner enrolled", metadata: ["scanner": "\(scannerID)", "issued": "\(info.id)"])
            return try .json(Enrolment(scannerID: scannerID, token: token.secret), status: .created)
        case .unknown:
            refusal = "no such enrolment code: check it, or make a new one on the admin page"
        case .used(let at):
            refusal = "this enrolment code was used at \(at.formatted(.iso8601)); make a new one"
        case .expired(let at):
            refusal = "this enrolment code expired at \(at.formatted(.iso8601)); make a new one"
        case .scannerGone(let id):
            refusal = "scanner \(id), which this code enrols, was deleted; make a new code"
        }
        let reason = switch outcome {
        case .unknown: "unknown_code"
        case .used: "used_code"
        case .expired: "expired_code"
        case .scannerGone, .enrolled: "scanner_gone"
        }
        throttle.recordRefusal("Enrolment", reason: reason, context: context, metrics: metrics)
        throw APIError(.forbidden, code: "enrolment_refused", message: refusal)
    }

    static func hash(_ normalisedCode: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(normalisedCode.utf8)))
    }
}
