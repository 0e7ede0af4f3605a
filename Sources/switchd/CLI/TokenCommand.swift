import ArgumentParser
import Foundation
import ScanContract
import SwitchdStore

/// `switchd token issue|list|revoke`: the bearer tokens in a state folder's database. Works
/// while switchd runs; a revoked token is refused from switchd's next request on.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Issue, list and revoke the bearer tokens switchd accepts.",
        subcommands: [Issue.self, List.self, Revoke.self]
    )

    struct StateOptions: ParsableArguments {
        @Option(help: "switchd's state folder (the one holding switchd.sqlite).") var stateDir = Settings.defaultStateDirectory

        func open() throws -> AppDatabase {
            try AppDatabase.open(stateDirectory: stateDir)
        }
    }

    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a token and print it, once, on standard output (keep it: only its hash is stored)."
        )

        @Option(help: "admin, scanner, reader or visitor.") var role: TokenRole
        @Option(help: "The scanner a scanner token speaks for (required for --role scanner).") var scannerID: String?
        @Option(help: "A label for people (default: the role and scanner ID).") var name: String?
        @OptionGroup var state: StateOptions

        func run() async throws {
            var scanner: ScannerID?
            if let scannerID {
                do {
                    scanner = try ScannerID(scannerID)
                } catch {
                    throw ArgumentParser.ValidationError("--scanner-id: \(error.reason)")
                }
            }
            let new = NewToken(name: name, role: role, scannerID: scanner)
            do {
                try new.validate()
            } catch {
                throw ArgumentParser.ValidationError("--\(error.field == "scannerID" ? "scanner-id" : error.field): \(error.reason)")
            }
            let database = try state.open()
            do {
                try await database.checkScannerRegistered(for: new)
            } catch StoreError.invalidField(let error) {
                throw ArgumentParser.ValidationError("--scanner-id \(error.reason)")
            }
            let token = BearerToken.generate()
            let info = try await database.issueToken(new, token: token, at: .nowInMilliseconds())
            print(token.secret)
            FileHandle.standardError.write(Data("issued token \(info.id) (\(info.name), \(info.role.rawValue))\n".utf8))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tokens (never their secrets), revoked ones too.")

        @Flag(help: "One JSON array, as GET /v1/tokens answers.") var json = false
        @OptionGroup var state: StateOptions

        func run() async throws {
            let tokens = try await state.open().tokens()
            if json {
                print(String(decoding: try JSONCoding.encoder().encode(tokens), as: UTF8.self))
                return
            }
            print(["ID", "ROLE", "SCANNER", "CREATED", "REVOKED", "NAME"].joined(separator: "\t"))
            for token in tokens {
                print([
                    String(token.id), token.role.rawValue, token.scannerID?.rawValue ?? "-", JSONCoding.formatDate(token.created),
                    token.revoked.map(JSONCoding.formatDate) ?? "-", token.name,
                ].joined(separator: "\t"))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token by its ID; switchd refuses it from then on.")

        @Argument(help: "The token's ID, as `switchd token list` shows it.") var id: Int64
        @OptionGroup var state: StateOptions

        func run() async throws {
            do {
                let info = try await state.open().revokeToken(id, at: .nowInMilliseconds())
                print("revoked token \(info.id) (\(info.name), \(info.role.rawValue))")
            } catch StoreError.notFound(let message) {
                throw TokenCommandError(message: "\(message); `switchd token list` shows the IDs")
            }
        }
    }
}

/// A refusal of `switchd token`, printed as it is.
struct TokenCommandError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension TokenRole: ExpressibleByArgument {}
