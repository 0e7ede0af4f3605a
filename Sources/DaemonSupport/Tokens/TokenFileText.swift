import Foundation

/// The text of a token file (`admin.token`, `--admin-token-file`, scannerd's `--token-file`).
public enum TokenFileText {
    /// The token a file holds: its first line, spaces trimmed; nil when that is empty or holds a
    /// space (not one token).
    public static func token(in text: String) -> String? {
        let line = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return line.isEmpty || line.contains(" ") ? nil : line
    }

    /// Why a token file gave no token; the description reads on from the file's name.
    public enum ReadError: Error, CustomStringConvertible {
        case unreadable(reason: String)
        case noToken

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot be read: \(reason)"
            case .noToken: "holds no token (one line, no spaces, expected)"
            }
        }
    }

    /// The token in the file at `path` (see ``token(in:)``).
    public static func read(_ path: String) throws(ReadError) -> String {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(reason: error.localizedDescription)
        }
        guard let token = token(in: text) else { throw .noToken }
        return token
    }
}
