import CDQIModel
import Foundation

extension PersistentContainer {
    /// Opens the store at `url` with the version of the bundle that wrote it, or creates a new store of
    /// the bundle's current version when the file is missing or empty. A store whose version the bundle no
    /// longer has opens with `migrate`, which migrates it from the model it carries in `Z_MODELCACHE`.
    ///
    /// ```swift
    /// let bundle = try LoadedBundle(url: URL(fileURLWithPath: "Library.xcdatamodeld"))
    /// let container = try PersistentContainer(bundle: bundle, url: storeURL)
    /// container.coordinator.model.versionName   // "Library" for a store version 1 wrote
    /// ```
    ///
    /// With `migrate`, a store of an older version is first migrated to the current version by
    /// lightweight migration (``LoadedBundle/migrateStore(at:to:progress:)``), as Core Data's
    /// `NSPersistentContainer` does by default.
    /// - Throws: ``MigrationError/noMatchingVersion(store:bundle:nearest:differences:)`` when no version
    ///   matches the store's version hashes, ``MigrationError/store(_:)`` when it cannot be opened, and the
    ///   migration's errors.
    public convenience init(bundle: LoadedBundle, url: URL, migrate: Bool = false) throws(MigrationError) {
        if migrate, Self.hasContent(url) { try bundle.migrateStore(at: url) }
        let model = try Self.model(in: bundle, forStoreAt: url)
        do {
            try self.init(model: model, url: url)
        } catch {
            throw .store(error)
        }
    }

    /// The version of `bundle` to open the store at `url` with: the one that wrote it, or the current
    /// version for a store yet to be created.
    static func hasContent(_ url: URL) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0) > 0
    }

    static func model(in bundle: LoadedBundle, forStoreAt url: URL) throws(MigrationError) -> ManagedObjectModel {
        guard hasContent(url) else { return bundle.current.model }
        let metadata: StoreMetadata
        do {
            metadata = try StoreMetadata.read(from: url)
        } catch {
            throw .store(error)
        }
        if let found = bundle.version(matching: metadata) { return found.model }
        // As Core Data does, a store no version of the bundle wrote is refused, even when it carries its
        // model: that model is only the source of a migration (`migrate`), never a way to open the store
        // of another model without a word.
        let nearest = bundle.nearestVersion(to: metadata)
        throw .noMatchingVersion(
            store: url.path, bundle: bundle.url.lastPathComponent,
            nearest: nearest.version.model.versionName, differences: nearest.differences)
    }
}
