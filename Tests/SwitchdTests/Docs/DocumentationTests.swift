import Foundation
import Testing

/// The README and the pages under docs/ state facts that go stale as the code moves: links to
/// pages and headings, routes, and switchd's options. These checks read every page and fail
/// naming the page and the stale fact.
@Suite("Documentation")
struct DocumentationTests {
    /// README.md and every Markdown page under docs/, as paths from the repository root.
    static func pages() throws -> [String] {
        let docs = repositoryFile("docs")
        let enumerator = FileManager.default.enumerator(atPath: docs)
        var pages = ["README.md"]
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".md") { pages.append("docs/" + path) }
        }
        return pages.sorted()
    }

    static func text(_ page: String) throws -> String {
        try String(contentsOfFile: repositoryFile(page), encoding: .utf8)
    }

    /// The page without its fenced code blocks (a link or heading inside one is not one).
    static func prose(_ text: String) -> String {
        var kept: [Substring] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            if !inFence { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    /// A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped,
    /// spaces turned into `-`.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character == "-" || character == "_" || character.isLetter || character.isNumber { return character }
            return nil
        })
    }

    static func anchors(ofPage page: String) throws -> Set<String> {
        let lines = prose(try text(page)).split(separator: "\n")
        return Set(lines.compactMap { line -> String? in
            guard line.hasPrefix("#") else { return nil }
            let heading = line.drop { $0 == "#" }
            guard heading.hasPrefix(" ") else { return nil }
            return anchor(heading.trimmingCharacters(in: .whitespaces))
        })
    }

    /// Every `[text](target)` of a page's prose whose target is not a URL with a scheme.
    static func relativeLinks(_ text: String) -> [String] {
        let pattern = /\]\(([^)\s]+)\)/
        return prose(text).matches(of: pattern).map { String($0.output.1) }.filter { target in
            target.firstMatch(of: /^[a-z][a-z0-9+.-]*:/) == nil
        }
    }

    /// "docs/a/b.md" joined with "../c.md#x" and normalised: "docs/c.md".
    static func resolve(_ target: String, from page: String) -> String {
        var parts = page.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/").map(String.init) {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    @Test("every relative link names a file that exists, and a heading of it for a #fragment")
    func linksResolve() throws {
        var stale: [String] = []
        for page in try Self.pages() {
            for target in Self.relativeLinks(try Self.text(page)) {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = parts[0].isEmpty ? page : Self.resolve(String(parts[0]), from: page)
                guard FileManager.default.fileExists(atPath: repositoryFile(path)) else {
                    stale.append("\(page): \(target) (no file \(path))")
                    continue
                }
                if parts.count == 2, path.hasSuffix(".md"), !(try Self.anchors(ofPage: path)).contains(String(parts[1])) {
                    stale.append("\(page): \(target) (no such heading in \(path))")
                }
            }
        }
        #expect(stale.isEmpty, "stale links:\n\(stale.joined(separator: "\n"))")
    }

    /// `GET /v1/x`, `POST/GET /v1/x/{id}` in backticks: each method with the path cut at `?` or
    /// `[`. Concrete segments (`default`, `ID`) match a template's `{…}`.
    static func namedOperations(_ text: String) -> [(method: String, path: String)] {
        let pattern = /`((?:GET|POST|PUT|PATCH|DELETE)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*) (\/[^`\s?\[]*)/
        return text.matches(of: pattern).flatMap { match in
            var path = String(match.output.2)
            while let last = path.last, ".,;:)".contains(last) { path.removeLast() }
            return match.output.1.split(separator: "/").map { (String($0), path) }
        }
    }

    static func matches(_ method: String, _ path: String, _ operation: String) -> Bool {
        let parts = operation.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0] == method else { return false }
        let template = parts[1].split(separator: "/")
        let concrete = path.split(separator: "/")
        guard template.count == concrete.count else { return false }
        return zip(template, concrete).allSatisfy { $0 == "{}" || $0 == $1 }
    }

    /// The dated history of benchmark runs names routes as they were then; every other page
    /// describes today.
    static let historyPages: Set<String> = ["docs/benchmarks/history.md"]

    @Test("every METHOD /path a page names is an operation of docs/openapi.yaml")
    func routesExist() throws {
        let operations = try OpenAPIDocumentTests.documentedOperations()
        var stale: [String] = []
        for page in try Self.pages() where !Self.historyPages.contains(page) {
            for (method, path) in Self.namedOperations(try Self.text(page))
            where !operations.contains(where: { Self.matches(method, path, $0) }) {
                stale.append("\(page): \(method) \(path)")
            }
        }
        #expect(stale.isEmpty, "routes named but not served:\n\(stale.joined(separator: "\n"))")
    }

    /// The keys of a shipped configuration file: its settings, commented out or not.
    static func configurationKeys(_ file: String) throws -> Set<String> {
        let text = try String(contentsOfFile: repositoryFile(file), encoding: .utf8)
        return Set(text.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\s*#?\s*([a-z][a-z0-9-]*)\s*=/).map { String($0.output.1) }
        })
    }

    /// Options the pages name that belong to other commands: the scripts, the evaluator, the
    /// toolchain and ArgumentParser. A switchd or scannerd option is never listed here; it must be
    /// a key of its shipped configuration file.
    static let otherCommandsOptions: Set<String> = [
        "arch", "seconds", "mqtt",                                  // scripts/package, scripts/demo
        "config", "help", "experimental-dump-help",                 // every daemon, ArgumentParser
        "key", "filter", "explicit-target-dependency-import-check",  // the config reader's words, swift
        "static-swift-stdlib", "why-extract",                        // the toolchain and lld
        "data", "dataset", "device", "window-seconds", "survey-quality", "fixed-settings",
        "floor-vote-power", "floor-voters", "k", "neighbour-ratio", "position-power", "method",
        "leave-one-user-out",                                        // floorscan-evaluate
        "sim-position",                                              // scannerd track's simulation
        "phone", "strangers", "rotate-every",                        // the radio lab's vhci-controller.py
    ]

    @Test("every --option a page names as a daemon's is a key of its shipped configuration file")
    func optionsExist() throws {
        let keys = try Self.configurationKeys("packaging/switchd.toml")
            .union(try Self.configurationKeys("packaging/scannerd.toml"))
        var stale: [String] = []
        for page in try Self.pages() where !Self.historyPages.contains(page) {
            for span in try Self.text(page).matches(of: /`([^`\n]+)`/).map({ String($0.output.1) })
            where span.hasPrefix("--") || span.hasPrefix("switchd ") || span.hasPrefix("scannerd ") {
                for match in span.matches(of: /(?:^|[\s=\[(])--([a-z][a-z0-9-]*)/) {
                    let option = String(match.output.1)
                    let base = option.hasPrefix("no-") ? String(option.dropFirst(3)) : option
                    if !keys.contains(option), !keys.contains(base), !Self.otherCommandsOptions.contains(option) {
                        stale.append("\(page): --\(option) in `\(span)`")
                    }
                }
            }
        }
        #expect(stale.isEmpty, "options named but not in packaging/*.toml:\n\(stale.joined(separator: "\n"))")
    }

    @Test("the README stays a front door of at most 200 lines")
    func readmeIsShort() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 200, "README.md has \(lines) lines; move details to docs/ (docs/testing.md says where)")
    }
}
