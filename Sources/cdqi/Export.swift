import ArgumentParser
import CDQIInterchange
import Foundation

/// `cdqi export`: writes the objects of a store as the JSON document `cdqi import` reads.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Exports the objects of a store as a JSON document.",
        usage: "cdqi export [<model>] <store> [--entity <entity>] [--output <file>] [--model-version <name>]",
        discussion: """
            Writes every stored attribute and relationship of every object, with _ids \
            Entity/pk, in the format 'cdqi import' reads. With --entity, only that entity and its \
            sub-entities are written, and relationships to other entities are left out. The store \
            is a SQLite file, or a PostgreSQL schema given as \
            postgres://user:password@host:port/database?schema=name; either gives the same \
            document. The store must exist: an export never creates one. Without a model, the store is read with the \
            model it carries (Z_MODELCACHE, kept by Apple's Core Data); a store without one is \
            refused.

            Exit status: 0 on success, 64 on bad usage (an unknown entity), 1 when the model or \
            the store cannot be read or the output cannot be written.
            """
    )

    @OptionGroup var paths: ModelAndStoreArguments

    @Option(help: ArgumentHelp("Export only this entity (and its sub-entities).", valueName: "entity"))
    var entity: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write. Default: standard output.", valueName: "file"))
    var output: String?

    @Option(
        name: .customLong("model-version"),
        help: ArgumentHelp(
            "The version of the model bundle to use. Default: the version whose entity version hashes match the store's, else the bundle's current version.",
            valueName: "name"))
    var modelVersion: String?

    func validate() throws {
        if modelVersion != nil, paths.model == nil {
            throw ValidationError("--model-version needs a model bundle: cdqi export MODEL STORE --model-version NAME.")
        }
    }

    func run() throws {
        let location = try StoreCommandSupport.location(paths.store)
        let loadedModel = try StoreCommandSupport.loadModel(paths.model, version: modelVersion, forStore: paths.store)
        // The document goes out as it is read (memory stays flat); to a file, through a temporary file
        // beside it that replaces it only once the export has succeeded.
        let destination = output.map { URL(fileURLWithPath: $0) }
        let temporary = destination.map {
            $0.deletingLastPathComponent().appendingPathComponent(".\($0.lastPathComponent).cdqi-export-\(UUID().uuidString)")
        }
        let handle: FileHandle
        if let temporary {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
                let file = try? FileHandle(forWritingTo: temporary)
            else { throw StoreCommandSupport.fail("\(output ?? ""): cannot write the document: the folder is not writable") }
            handle = file
        } else {
            handle = FileHandle.standardOutput
        }
        var buffer = BufferedOutput(handle: handle)
        let progress = ProgressLine(verb: "exported", noun: "object")
        do {
            try StoreExporter(model: loadedModel).export(
                store: location, entity: entity, progress: progress.update
            ) { try buffer.write($0) }
            try buffer.flush()
            progress.finish()
        } catch {
            progress.finish()
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
            if let error = error as? InterchangeError {
                if case .unknownEntity = error { throw StoreCommandSupport.fail(error.description, usage: true) }
                throw StoreCommandSupport.fail(
                    StoreCommandSupport.withVersionHint(error.description, model: paths.model, loaded: loadedModel, store: paths.store))
            }
            throw StoreCommandSupport.fail("\(output ?? "standard output"): cannot write the document: \(error.localizedDescription)")
        }
        guard let temporary, let destination else { return }
        try? handle.close()
        // rename(2) replaces the destination in one step, whether or not it exists.
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw StoreCommandSupport.fail("\(destination.path): cannot write the document: \(reason)")
        }
    }
}
