import Foundation
import Logging

/// `--port-file`: the port switchd listens on, one line, for whoever started it with `--port 0`.
enum PortFile {
    /// Writes the file whole or not at all (a reader never sees half a number). A file that
    /// cannot be written is logged as an error; switchd goes on serving.
    static func write(_ port: Int, to path: String, logger: Logger) {
        do {
            try Data("\(port)\n".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            logger.error("Could not write the port file", metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }
}
