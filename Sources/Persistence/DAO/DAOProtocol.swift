import CDQIStore

/// The generic operations of a data access object (Objective-C's `DAO` protocol, imported by Swift as
/// `DAOProtocol` because the class ``DAO`` has the same name). Each DAO serves one entity.
///
/// The methods that can fail report the error to the DAO's handler (or ``errorHandler``) and return an
/// empty result, as upstream; ``DAO`` has a throwing `try…` twin of each.
public protocol DAOProtocol: AnyObject {
    /// The IDs of all objects.
    func findAllId() -> [ManagedObjectID]
    /// All objects.
    func findAll() -> [Any]
    /// All objects, from `fetchOffset`, at most `limit` (0 or less: no limit).
    func findAll(_ fetchOffset: Int, limit: Int) -> [Any]
    /// The IDs of the objects the criteria select.
    func findAllId(_ criteria: CDSearchCriteria?) -> [ManagedObjectID]
    /// The objects the criteria select (dictionaries when they have projections).
    func findAll(_ criteria: CDSearchCriteria?) -> [Any]
    /// The objects the criteria select, from `fetchOffset`, at most `limit` (0 or less: no limit).
    func findAll(_ criteria: CDSearchCriteria?, fetchOffset: Int, limit: Int) -> [Any]
    /// The number of objects.
    func count() -> Int
    /// The number of objects the criteria select.
    func count(_ criteria: CDSearchCriteria?) -> Int
    /// A new object of the DAO's entity, inserted in its context.
    func insertNewObject() -> ManagedObject!
    /// Deletes `object` (at the next save).
    func deleteObject(_ object: ManagedObject)
    /// The object with `objectID`.
    func findObjectById(_ objectID: ManagedObjectID) -> ManagedObject!
    /// With `flag`, merges the object with the store's state; without, turns it back into a fault.
    func refreshObject(_ object: ManagedObject, mergeChanges flag: Bool)
}
