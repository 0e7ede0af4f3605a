#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `POST /v1/enrolments` (admin): a one-time code with which a new Pi fetches its scanner token
/// (`scannerd enrol URL CODE`), instead of a token issued on switchd's machine and copied by hand.
public struct NewEnrolmentCode: Codable, Hashable, Sendable {
    /// The scanner the code enrols; registered with the code when no scanner has this ID yet.
    public var scannerID: ScannerID
    /// A name for the scanner when the code registers it, and for the token it issues.
    public var name: String?
    /// How long the code may be used, in seconds: 60 to 86,400 (a day); 900 when left out.
    public var expiresInSeconds: Int?

    public static let defaultExpiry = 900
    public static let expiryRange = 60...86_400

    public init(scannerID: ScannerID, name: String? = nil, expiresInSeconds: Int? = nil) {
        self.scannerID = scannerID
        self.name = name
        self.expiresInSeconds = expiresInSeconds
    }

    /// Checks the name and the expiry's range.
    public func validate() throws(ValidationError) {
        if let name { try validateName(name, field: "name") }
        if let expiresInSeconds, !Self.expiryRange.contains(expiresInSeconds) {
            throw ValidationError(
                field: "expiresInSeconds",
                reason: "must be \(Self.expiryRange.lowerBound) to \(Self.expiryRange.upperBound) seconds, got \(expiresInSeconds)"
            )
        }
    }

    public var effectiveExpiry: Int { expiresInSeconds ?? Self.defaultExpiry }
}

/// The answer to `POST /v1/enrolments`: the code, shown this once (switchd keeps only its hash).
public struct EnrolmentCode: Codable, Hashable, Sendable {
    /// `XXXX-XXXX-XXXX`: twelve characters of Crockford's base32 (60 random bits), for a person to
    /// read out or type; ``EnrolmentCodeText/normalised(_:)`` says what typing may change.
    public var code: String
    public var scannerID: ScannerID
    /// Whether this request registered the scanner.
    public var scannerRegistered: Bool
    public var expires: Date
    /// When switchd serves HTTPS: the SHA-256 of its certificate's public key as libcurl pins it
    /// (`sha256//` and base64), for `scannerd enrol --pin` on a Pi that does not have the
    /// certificate yet. Nil over plain HTTP.
    public var pin: String?

    public init(code: String, scannerID: ScannerID, scannerRegistered: Bool, expires: Date, pin: String?) {
        self.code = code
        self.scannerID = scannerID
        self.scannerRegistered = scannerRegistered
        self.expires = expires
        self.pin = pin
    }
}

/// `POST /v1/enrol` (no token: the code is the credential): what `scannerd enrol` sends.
public struct EnrolmentRequest: Codable, Hashable, Sendable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}

/// The answer to `POST /v1/enrol`: the scanner's new token, shown this once.
public struct Enrolment: Codable, Hashable, Sendable {
    public var scannerID: ScannerID
    /// The bearer token for scannerd's token file.
    public var token: String

    public init(scannerID: ScannerID, token: String) {
        self.scannerID = scannerID
        self.token = token
    }
}

/// The text of enrolment codes: how they are written and read back.
public enum EnrolmentCodeText {
    /// Crockford's base32 alphabet: no I, L, O or U, so a code read aloud or typed is not misread.
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let characters = 12

    /// `bytes` (at least 8; 60 of their bits are used) written as `XXXX-XXXX-XXXX`.
    public static func format(randomBytes bytes: [UInt8]) -> String {
        precondition(bytes.count >= 8, "an enrolment code needs 60 random bits")
        var value = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var characters: [Character] = []
        for _ in 0..<Self.characters {
            characters.append(alphabet[Int(value & 31)])
            value >>= 5
        }
        return stride(from: 0, to: Self.characters, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// The code as switchd compares it: upper case, without dashes or spaces, with O read as 0
    /// and I and L as 1 (as Crockford's base32 reads them).
    ///
    /// - Throws: ``ValidationError`` naming `code` when what is left is not twelve characters of
    ///   the alphabet.
    public static func normalised(_ text: String) throws(ValidationError) -> String {
        var out = ""
        for character in text.uppercased() where character != "-" && character != " " {
            switch character {
            case "O": out.append("0")
            case "I", "L": out.append("1")
            default: out.append(character)
            }
        }
        guard out.count == characters, out.allSatisfy(alphabet.contains) else {
            throw ValidationError(
                field: "code", reason: "must be an enrolment code of \(characters) letters and digits (XXXX-XXXX-XXXX), as switchd showed it"
            )
        }
        return out
    }
}
