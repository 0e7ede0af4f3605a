import Foundation
import NIOCore

/// The admin page's files, read once at start: what `/admin/` serves, and nothing else.
///
/// Only regular files below the folder with a known extension are taken; hidden files and
/// folders (a leading dot) are skipped. A request can only name a file of this list, so no path
/// it sends reaches outside the folder.
struct AdminFiles: Sendable {
    struct File: Sendable {
        var contentType: String
        var body: ByteBuffer
    }

    /// The folder the files were read from, for the log.
    let directory: String
    /// Keyed by the path below the folder, `/`-separated: `index.html`, `js/app.js`.
    private let files: [String: File]

    /// The `Content-Type` of each extension served; other files are not served.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8",
    ]

    /// All files together may not be larger than this: the folder is a web page, not a dump.
    static let maxTotalBytes = 32 * 1024 * 1024

    subscript(path: String) -> File? { files[path] }
    var paths: [String] { files.keys.sorted() }

    /// Reads the files below `directory`.
    ///
    /// - Throws: ``AdminFilesError`` when the folder is missing or unreadable, or holds more than
    ///   ``maxTotalBytes``.
    init(directory: String) throws(AdminFilesError) {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AdminFilesError("admin folder \(directory) does not exist or is not a folder")
        }
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
        ) else {
            throw AdminFilesError("admin folder \(directory) cannot be listed")
        }
        var files: [String: File] = [:]
        var total = 0
        for case let url as URL in enumerator {
            guard let contentType = Self.contentTypes[url.pathExtension.lowercased()],
                  (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            else { continue }
            let relative = url.standardizedFileURL.path.dropFirst(root.path.count).drop { $0 == "/" }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw AdminFilesError("admin file \(url.path) cannot be read")
            }
            total += data.count
            guard total <= Self.maxTotalBytes else {
                throw AdminFilesError("admin folder \(directory) holds more than \(Self.maxTotalBytes) bytes")
            }
            files[String(relative)] = File(contentType: contentType, body: ByteBuffer(bytes: data))
        }
        self.directory = root.path
        self.files = files
    }
}

struct AdminFilesError: Error, CustomStringConvertible, Sendable {
    var description: String
    init(_ description: String) { self.description = description }
}
