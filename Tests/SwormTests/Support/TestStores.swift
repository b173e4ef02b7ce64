import CDQIModel
import CDQIStore
import Sworm

/// In-memory stores for the tests. This file imports both `CDQIStore` and `Sworm`, so the names they
/// share are qualified, as a user's file that imports both must.
enum TestStores {
    /// A new in-memory store of `model`.
    static func store(_ model: ManagedObjectModel) throws -> CDQIStore.PersistentContainer {
        try CDQIStore.PersistentContainer(model: model, url: nil)
    }

    /// A Sworm container over a new in-memory store of `model`, each call on a new context.
    static func sworm(
        _ model: ManagedObjectModel, logError: ((any Error) -> Void)? = nil, cleanUp: Bool = true
    ) throws -> Sworm.PersistentContainer {
        let store = try store(model)
        return Sworm.PersistentContainer(
            managedObjectContext: { store.newContext() }, logError: logError, cleanUpAfterExecution: cleanUp)
    }
}
