import ArgumentParser
import CDQIInterchange
import Foundation

/// `cdqi import`: inserts the objects of a JSON document into a store, all or nothing.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Imports a JSON document of objects into a store.",
        discussion: """
            The document maps entity names to arrays of objects: \
            {"Department": [{"_id": "d1", "name": "Sales"}], "Employee": [{"_id": "e1", \
            "firstName": "Jane", "department": "d1"}]}. _id names an object for relationships \
            (a to-many takes an array of _ids). The store is a SQLite file, or a PostgreSQL \
            schema given as postgres://user:password@host:port/database?schema=name; it is \
            created when missing (in an empty schema). A document with any problem changes \
            nothing, and every problem is printed.

            Exit status: 0 on success, 1 when the document, the model or the store has a problem.
            """
    )

    @Argument(help: "The model's name (found under the current folder) or the path of a model.")
    var model: String

    @Argument(help: "The SQLite store file, or a PostgreSQL URL postgres://user:password@host:port/database?schema=name (created when missing).")
    var store: String

    @Argument(help: "The JSON document, or - for standard input.")
    var file: String

    @Flag(name: .customLong("dry-run"), help: "Check the document against the model and write nothing.")
    var dryRun = false

    @Option(
        name: .customLong("model-version"),
        help: ArgumentHelp(
            "The version of the model bundle to use. Default: the version whose entity version hashes match the store's, else the bundle's current version.",
            valueName: "name"))
    var modelVersion: String?

    func run() throws {
        let location = try StoreCommandSupport.location(store)
        let loadedModel = try StoreCommandSupport.loadModel(model, version: modelVersion, forStore: store)
        // The document is read a chunk at a time, twice (checked, then inserted), never whole: standard
        // input is first copied to a temporary file.
        let spool = file == "-" ? try Self.spoolStandardInput() : nil
        defer { if let spool { try? FileManager.default.removeItem(at: spool) } }
        let documentURL = spool ?? URL(fileURLWithPath: file)
        let importer = StoreImporter(model: loadedModel)
        do {
            if dryRun {
                let summary = try importer.check(contentsOf: documentURL)
                StoreCommandSupport.write("would import \(summary.counted)\n")
            } else {
                let progress = ProgressLine(verb: "inserted", noun: "object")
                defer { progress.finish() }
                let summary = try importer.importDocument(contentsOf: documentURL, into: location, progress: progress.update)
                progress.finish()
                StoreCommandSupport.write("\(summary.description)\n")
            }
        } catch {
            throw StoreCommandSupport.fail(
                StoreCommandSupport.withVersionHint("\(file): \(error.description)", model: model, loaded: loadedModel, store: store))
        }
    }

    /// Copies standard input to a new temporary file, a chunk at a time, and returns the file.
    private static func spoolStandardInput() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-import-\(getpid())-\(UUID().uuidString).json")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let output = FileHandle(forWritingAtPath: url.path)
        else {
            throw StoreCommandSupport.fail("-: cannot copy standard input to a temporary file in \(url.deletingLastPathComponent().path)")
        }
        defer { try? output.close() }
        do {
            while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw StoreCommandSupport.fail("-: cannot copy standard input to a temporary file: \(error.localizedDescription)")
        }
        return url
    }
}
