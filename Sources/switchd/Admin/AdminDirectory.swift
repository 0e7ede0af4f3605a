import Foundation

/// Where switchd finds the admin page when `--admin-dir` is not given.
enum AdminDirectory {
    /// The installed place, relative to the executable (`/usr/bin/switchd` →
    /// `/usr/share/floorscan/admin`), then the source tree's `share/admin` (a development build
    /// in `.build/debug`). The first that is a folder holding `index.html` wins; nil when none.
    static func search(executable: URL? = Bundle.main.executableURL) -> String? {
        var candidates: [URL] = []
        if let executable {
            let bin = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            candidates.append(bin.appendingPathComponent("../share/floorscan/admin"))
        }
        // Sources/switchd/Admin/AdminDirectory.swift → the repository root. (#filePath here, not
        // as a default argument, which would name the caller's file.)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(repository.appendingPathComponent("share/admin"))
        return candidates.map(\.standardizedFileURL.path).first { path in
            FileManager.default.fileExists(atPath: path + "/index.html")
        }
    }
}
