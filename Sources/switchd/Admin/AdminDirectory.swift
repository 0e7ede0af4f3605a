import Foundation

/// Where switchd finds a page's folder (`admin`, `visit`) when `--admin-dir` or `--visit-dir` is not given.
enum AdminDirectory {
    /// The installed place, relative to the executable (`/usr/bin/switchd` →
    /// `/usr/share/floorscan/<page>`), then the source tree's `share/<page>` (a development build
    /// in `.build/debug`). The first that is a folder holding `index.html` wins; nil when none.
    static func search(executable: URL? = Bundle.main.executableURL, page: String = "admin") -> String? {
        var candidates: [URL] = []
        if let executable {
            let bin = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            candidates.append(bin.appendingPathComponent("../share/floorscan/\(page)"))
        }
        // Sources/switchd/Admin/AdminDirectory.swift → the repository root. (#filePath here, not
        // as a default argument, which would name the caller's file.)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(repository.appendingPathComponent("share/\(page)"))
        return candidates.map(\.standardizedFileURL.path).first { path in
            FileManager.default.fileExists(atPath: path + "/index.html")
        }
    }
}
