import ArgumentParser
import CDQIInterchange
import Foundation

/// `cdqi check`: looks for damage in a store file, reading it only.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks a Core Data SQLite store for damage (reads it only).",
        discussion: """
            Runs SQLite's PRAGMA integrity_check, then checks Core Data's bookkeeping: every row's \
            Z_ENT names an entity, and every Z_PRIMARYKEY.Z_MAX is an integer at least the largest \
            key of its table. Given the model, it also checks references: to-one relationships that \
            name missing rows, and join-table rows that name missing rows. The store is opened \
            read-only and never changed.

            Exit status: 0 when nothing was found, 1 when problems were found or the store or the \
            model cannot be read.
            """
    )

    @Argument(help: "The SQLite store file.")
    var store: String

    @Argument(help: "The model's name (found under the current folder) or the path of a model, for the reference checks.")
    var model: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp("The model version to read. Default: the bundle's current version.", valueName: "name"))
    var modelVersion: String?

    func run() throws {
        try StoreCommandSupport.requireFile(store, command: "check")
        let loadedModel = try model.map { argument throws(ExitCode) in
            try StoreCommandSupport.loadModel(argument, version: modelVersion)
        }
        let findings: [String]
        do {
            findings = try StoreChecker(model: loadedModel).check(URL(fileURLWithPath: store))
        } catch {
            throw StoreCommandSupport.fail(error.description)
        }
        guard !findings.isEmpty else {
            StoreCommandSupport.write("\(store): ok\n")
            return
        }
        let count = findings.count == 1 ? "1 problem" : "\(findings.count) problems"
        StoreCommandSupport.write("\(store): \(count)\n" + findings.map { "  - \($0)\n" }.joined())
        throw ExitCode.failure
    }
}
