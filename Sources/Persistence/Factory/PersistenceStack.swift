import CDQIModel
import CDQIStore
import Foundation

/// The Core Data stack the factory opens on first use: model, coordinator (over the container) and context.
struct PersistenceStack {
    let model: ManagedObjectModel
    let container: PersistentContainer
    var context: ManagedObjectContext

    /// Opens the stack the configuration describes: the model set (or loaded from its URL); for a
    /// SQLite store, `<documents>/<storePath>` (an absolute path as it is), first copied from the seed
    /// store when missing; for an in-memory store, no file.
    static func open(_ configuration: FactoryConfiguration, documentsDirectory: URL) throws(PersistenceError) -> PersistenceStack {
        let model = try loadModel(configuration)
        let type = configuration.storeType ?? NSSQLiteStoreType
        let url: URL?
        switch type {
        case NSSQLiteStoreType:
            guard let path = configuration.storePath, !path.isEmpty else { throw .storePathNotSet }
            let storeURL =
                path.hasPrefix("/")
                ? URL(fileURLWithPath: path) : documentsDirectory.appendingPathComponent(path)
            try copySeedIfMissing(configuration.seedStoreURL, to: storeURL)
            url = storeURL
        case NSInMemoryStoreType:
            url = nil
        default:
            throw .unsupportedStoreType(type)
        }
        let container: PersistentContainer
        do {
            container = try PersistentContainer(model: model, url: url)
        } catch {
            throw .store(error)
        }
        return PersistenceStack(model: model, container: container, context: container.newContext())
    }

    private static func loadModel(_ configuration: FactoryConfiguration) throws(PersistenceError) -> ManagedObjectModel {
        if let model = configuration.model { return model }
        guard let url = configuration.modelURL else { throw .modelNotSet }
        do {
            return try ModelLoader().load(url: url).model
        } catch {
            throw .modelNotLoadable(path: url.path, reason: error.description)
        }
    }

    /// Copies the seed store ("prefilled database") to `storeURL` when no file is there yet.
    private static func copySeedIfMissing(_ seed: URL?, to storeURL: URL) throws(PersistenceError) {
        guard let seed, !FileManager.default.fileExists(atPath: storeURL.path) else { return }
        do {
            try FileManager.default.createDirectory(
                at: storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: seed, to: storeURL)
        } catch {
            throw .seedStoreNotCopied(from: seed.path, to: storeURL.path, reason: error.localizedDescription)
        }
    }
}
