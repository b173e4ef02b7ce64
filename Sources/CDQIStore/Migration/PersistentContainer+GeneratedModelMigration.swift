import CDQIModel
import Foundation

extension PersistentContainer {
    /// Opens the store at `url` for a model `cdqi generate` wrote from a version of `bundle` (usually its
    /// current one), first migrating a store that an older version of the bundle wrote, by lightweight
    /// migration (progressive when needed), as Core Data's `NSPersistentContainer` does by default. The
    /// generated classes are registered, so fetches return them. A missing or empty file becomes a new
    /// store of the generated model.
    ///
    /// ```swift
    /// // Library.xcdatamodeld ships as a resource; LibraryModel was generated from its current version.
    /// guard let bundleURL = Bundle.module.url(forResource: "Library", withExtension: "xcdatamodeld") else { return }
    /// let bundle = try LoadedBundle(url: bundleURL)
    /// let container = try PersistentContainer(model: LibraryModel.self, url: storeURL, migratingWith: bundle)
    /// ```
    ///
    /// - Parameter progress: called as the migration copies each entity and join table, with the number
    ///   done and the total (not called when the store needs no migration).
    /// - Throws: ``MigrationError/generatedModelNotInBundle(generatedModel:bundle:)`` when no version of
    ///   the bundle has the generated model's version hashes (the code was generated from another model, or
    ///   before the bundle changed: run `cdqi generate` again); the migration's errors, which leave the
    ///   store as it was; ``MigrationError/store(_:)`` when the store cannot be opened.
    public convenience init<Model: GeneratedModel>(
        model: Model.Type, url: URL, migratingWith bundle: LoadedBundle,
        progress: ((_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws(MigrationError) {
        let hashes = ModelVersionHashes(model: Model.model).entityHashes
        guard let version = bundle.versions.last(where: { ModelVersionHashes(model: $0.model).entityHashes == hashes }) else {
            throw .generatedModelNotInBundle(generatedModel: String(describing: Model.self), bundle: bundle.url.lastPathComponent)
        }
        if Self.hasContent(url) {
            try bundle.migrateStore(at: url, to: version.model.versionName, progress: progress)
        }
        do {
            try self.init(model: Model.self, url: url)
        } catch {
            switch error {
            case .store(let error):
                throw .store(error)
            case .modelMismatch:
                // The coordinator is made from `Model.model` itself, so its classes always fit.
                throw .generatedModelNotInBundle(generatedModel: String(describing: Model.self), bundle: bundle.url.lastPathComponent)
            }
        }
    }
}
