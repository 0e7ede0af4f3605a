import Foundation

/// The public datasets and radio captures some suites read: the folder `$FLOORSCAN_DATA`, or
/// `../shared/data` beside the repository.
///
/// A suite that needs one of them is enabled only when ``has(_:)`` finds it
/// (`@Test(.enabled(if: PublicData.has("ujiindoorloc")))`), so the test runner reports it as
/// skipped, not passed, on a machine without the data.
public enum PublicData {
    /// The data folder, whether or not it exists.
    public static var folder: String {
        if let given = ProcessInfo.processInfo.environment["FLOORSCAN_DATA"], !given.isEmpty { return given }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.deletingLastPathComponent().appendingPathComponent("shared/data").path
    }

    /// The path of `name` (a file or folder, relative to ``folder``).
    public static func path(_ name: String) -> String {
        folder + "/" + name
    }

    /// True when every one of `names` is in the data folder.
    public static func has(_ names: String...) -> Bool {
        names.allSatisfy { FileManager.default.fileExists(atPath: path($0)) }
    }

    /// The whole file `name`. Throws when it cannot be read (a suite checks ``has(_:)`` first).
    public static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Why a suite needing `names` is skipped, for `.enabled(if:_:)`.
    public static func missing(_ names: String...) -> String {
        "needs \(names.joined(separator: ", ")) in \(folder); set FLOORSCAN_DATA to the folder holding it"
    }
}
