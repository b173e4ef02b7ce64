import CDQIModel
import CDQIStore

/// Finds the entity of a query's class, as Core Data does from its model, and makes sure fetched
/// objects are instances of that class.
enum EntityResolution {
    /// The entity of `type` in the context's model (see
    /// ``PersistentStoreCoordinator/entityName(forClass:)``). When no class is registered for the
    /// entity (or only an ancestor's), `type` is registered for it, so that fetched objects are
    /// instances of it, as a model naming the class makes them on Apple platforms. A class registered
    /// for the entity that is `type` or a subclass of it is kept.
    static func entity<T: ManagedObject>(of type: T.Type, in context: ManagedObjectContext) throws(QueryError) -> EntityLayout {
        let coordinator = context.coordinator
        guard let name = coordinator.entityName(forClass: type), let layout = coordinator.layout.entity(named: name) else {
            throw .entityNotFound(className: String(describing: type))
        }
        let objectClass = coordinator.objectClass(for: layout)
        if objectClass is T.Type { return layout }
        if objectClass == ManagedObject.self || coordinator.entityName(forClass: objectClass) != name {
            coordinator.register(type, forEntityName: name)
            return layout
        }
        throw .classMismatch(
            entity: name, className: String(describing: type), registeredClassName: String(describing: objectClass))
    }

    /// Throws ``QueryError/unknownKey(_:entity:)`` for the first key that is neither an attribute nor a
    /// relationship of the entity (inherited ones included: the layout names them all).
    static func checkKeys(_ keys: [String], of layout: EntityLayout) throws(QueryError) {
        for key in keys where layout.properties[key] == nil {
            throw .unknownKey(key, entity: layout.name)
        }
    }
}
