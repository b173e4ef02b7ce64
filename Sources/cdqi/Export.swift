import ArgumentParser
import CDQIInterchange
import Foundation

/// `cdqi export`: writes the objects of a store as the JSON document `cdqi import` reads.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Exports the objects of a store as a JSON document.",
        discussion: """
            Writes every stored attribute and relationship of every object, with _ids \
            Entity/pk, in the format 'cdqi import' reads. With --entity, only that entity and its \
            sub-entities are written, and relationships to other entities are left out. The store \
            must exist: an export never creates one.

            Exit status: 0 on success, 64 on bad usage (an unknown entity), 1 when the model or \
            the store cannot be read or the output cannot be written.
            """
    )

    @Argument(help: "The model's name (found under the current folder) or the path of a model.")
    var model: String

    @Argument(help: "The SQLite store file.")
    var store: String

    @Option(help: ArgumentHelp("Export only this entity (and its sub-entities).", valueName: "entity"))
    var entity: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write. Default: standard output.", valueName: "file"))
    var output: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp("The model version to read. Default: the bundle's current version.", valueName: "name"))
    var modelVersion: String?

    func run() throws {
        let loadedModel = try StoreCommandSupport.loadModel(model, version: modelVersion)
        let text: String
        do {
            text = try StoreExporter(model: loadedModel).exportText(storeURL: URL(fileURLWithPath: store), entity: entity)
        } catch {
            if case .unknownEntity = error { throw StoreCommandSupport.fail(error.description, usage: true) }
            throw StoreCommandSupport.fail(
                StoreCommandSupport.withVersionHint(error.description, model: model, loaded: loadedModel, store: store))
        }
        guard let output else {
            StoreCommandSupport.write(text)
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw StoreCommandSupport.fail("\(output): cannot write the document: \(error.localizedDescription)")
        }
    }
}
