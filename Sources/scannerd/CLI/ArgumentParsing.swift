import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Positioning
import ScanContract

extension RadioChoice: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}

func parseURL(_ text: String) throws -> URL {
    guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
        throw ArgumentParser.ValidationError("must be an http:// or https:// URL like http://127.0.0.1:8080, got \"\(text)\"")
    }
    return url
}

func parseScannerID(_ text: String) throws -> ScannerID {
    do {
        return try ScannerID(text)
    } catch {
        throw ArgumentParser.ValidationError(error.reason)
    }
}

func parseTrajectory(_ text: String) throws -> Trajectory {
    do {
        return try Trajectory(parsing: text)
    } catch {
        throw ArgumentParser.ValidationError(error.reason)
    }
}
