import CDQIModel
import Foundation

/// A model `cdqi generate` wrote from a bundle of several versions, carrying the earlier versions too
/// (built by generated code, as the current one is), so that a store any of them wrote is migrated with
/// no `.xcdatamodeld` on disk at run time: one binary, no resources.
///
/// `cdqi` writes the conformance when the bundle has more than one version, unless told not to
/// (`--versions current`, or `"versions": "current"` in `cdqi.json`). Opening a store with
/// `PersistentContainer(model:url:)` then migrates it first, as Core Data's `NSPersistentContainer` does
/// by default:
/// ```swift
/// // ShopModel carries "Shop" and "Shop 2"; the store was written by "Shop".
/// let container = try PersistentContainer(model: ShopModel.self, url: storeURL)   // migrated, then opened
/// ```
public protocol VersionedGeneratedModel: GeneratedModel {
    /// Every version of the bundle up to the one the code was generated for, in the bundle's order:
    /// oldest first, ``GeneratedModel/model`` last.
    static var versions: [ManagedObjectModel] { get }
}

extension VersionedGeneratedModel {
    /// The versions as a chain to migrate along; its current version is ``GeneratedModel/model``.
    static var versionChain: ModelVersionChain {
        ModelVersionChain(versions: versions, current: model, name: String(describing: Self.self), migratesFromCarriedModel: false)
    }

    /// Plans the migration of the store at `url` to ``GeneratedModel/model``, from the carried version
    /// that wrote it. Writes nothing.
    ///
    /// - Throws: ``MigrationError/noMatchingVersion(store:bundle:nearest:differences:)`` when no carried
    ///   version wrote the store: a store of another model, or of a newer version (an app run again at an
    ///   older release), which migrating from the model it carries would strip of what is newer;
    ///   ``MigrationError/store(_:)``.
    public static func migrationPlan(forStoreAt url: URL) throws(MigrationError) -> MigrationPlan {
        try versionChain.migrationPlan(forStoreAt: url)
    }

    /// Migrates the store at `url`, written by one of ``versions``, to ``GeneratedModel/model``, as
    /// ``LoadedBundle/migrateStore(at:to:progress:)`` does for a bundle: lightweight, straight when every
    /// change can be inferred, else through each intermediate version; atomic per step; a refusal writes
    /// nothing. A store already of the current version is left alone.
    ///
    /// - Parameter progress: called as each entity and join table is copied, with the number done and the
    ///   total (not called when nothing needs migrating).
    /// - Throws: the errors of ``migrationPlan(forStoreAt:)`` and of the migration, which leave the store
    ///   as it was.
    @discardableResult
    public static func migrateStore(
        at url: URL, progress: ((_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws(MigrationError) -> MigrationReport {
        let metadata: StoreMetadata
        do { metadata = try StoreMetadata.read(from: url) } catch { throw .store(error) }
        // The common case reads the store's hashes against the current model alone: the earlier versions
        // are built only when a store needs them.
        if metadata.isCompatible(with: model) { return MigrationReport(changes: [], wasAlreadyCompatible: true, objectCount: 0) }
        return try versionChain.migrateStore(at: url, progress: progress)
    }
}

extension PersistentContainer {
    /// Opens (or creates) the store at `url` (in memory when `nil`) for a generated model that carries its
    /// earlier versions, first migrating a store one of them wrote (``VersionedGeneratedModel/migrateStore(at:progress:)``),
    /// as Core Data's `NSPersistentContainer` does by default; no model bundle is read. The generated
    /// classes are registered, so fetches return them. A missing or empty file becomes a new store of the
    /// current version.
    ///
    /// To open without migrating, open with the model alone: `PersistentContainer(model: ShopModel.model, url:)`
    /// refuses a store of an earlier version. To follow a long migration, call
    /// ``VersionedGeneratedModel/migrateStore(at:progress:)`` with a progress callback first. The
    /// initializer is chosen at compile time: code generic over `GeneratedModel` alone gets the one that
    /// does not migrate, so constrain it to `VersionedGeneratedModel` to migrate.
    /// - Throws: ``MigrationError/noMatchingVersion(store:bundle:nearest:differences:)`` when no carried
    ///   version wrote the store (it is left as it was), the migration's errors (which leave the store as it
    ///   was), ``MigrationError/store(_:)`` when the store cannot be opened or created.
    public convenience init<Model: VersionedGeneratedModel>(model: Model.Type, url: URL?) throws(MigrationError) {
        if let url, Self.hasContent(url) { try Model.migrateStore(at: url) }
        do {
            try self.init(model: Model.model, url: url)
        } catch {
            throw .store(error)
        }
        // The coordinator was made from `Model.model`: its classes fit without a check.
        for (entityName, objectClass) in Model.entityClasses {
            coordinator.register(objectClass, forEntityName: entityName)
        }
    }
}
