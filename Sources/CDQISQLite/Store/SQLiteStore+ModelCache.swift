import CDQIModel
import CDQIObjects
import Foundation

extension SQLiteStore {
    /// Writes `model` into a new store's `Z_MODELCACHE`, as Apple's Core Data does: one row whose
    /// `Z_CONTENT` is the model as a compressed keyed archive (``CDQIModel/ManagedObjectModel/modelCacheContent()``),
    /// so the store opens with no model file (``CDQIModel/ManagedObjectModel/init(storeModelCacheAt:)``) and
    /// Apple's Core Data can migrate it once its model version is gone.
    ///
    /// An in-memory store gets none: nothing else ever opens it, and tests create thousands of them.
    /// A model that cannot be archived (one with Composite attributes, whose archived form is not known;
    /// two entities of one name or a looping hierarchy, which the loader refuses) leaves the table empty,
    /// as in stores Core Data wrote before framework 637; the store still opens with its model.
    static func writeModelCache(_ model: ManagedObjectModel, on connection: SQLiteConnection) throws(SQLiteError) {
        guard connection.path != ":memory:", let blob = try? model.modelCacheContent() else { return }
        let insert = try connection.prepareUncached("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
        try insert.bind(Data(blob), at: 1)
        try insert.run()
    }
}
