#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole UTF-8 text files the daemons read at start-up (configuration, token files).
enum TextFile {
    /// Why a file could not be read, in words (`No such file or directory`, `not UTF-8 text`).
    struct Unreadable: Error {
        let reason: String
    }

    /// The text of the file at `path`.
    ///
    /// - Throws: ``Unreadable`` when the file cannot be opened (the reason is `access(2)`'s errno,
    ///   plain on every platform) or is not UTF-8.
    static func read(_ path: String) throws(Unreadable) -> String {
        guard access(path, R_OK) == 0 else {
            throw Unreadable(reason: String(cString: strerror(errno)))
        }
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch let error as CocoaError where error.code == .fileReadInapplicableStringEncoding {
            throw Unreadable(reason: "not UTF-8 text")
        } catch {
            throw Unreadable(reason: "\(error)")
        }
    }
}
