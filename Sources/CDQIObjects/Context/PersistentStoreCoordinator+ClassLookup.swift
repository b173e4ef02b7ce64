import CDQIModel

extension PersistentStoreCoordinator {
    /// The entity whose objects a class stands for, as Core Data finds it from a model: the entity the
    /// class is registered for (``register(_:forEntityName:)``) when exactly one; else the entity whose
    /// class name in the model (`representedClassName`, module prefix dropped) is the class's name;
    /// else the entity named like the class; `nil` when the model has none of these.
    ///
    /// ```swift
    /// final class Employee: ManagedObject {}
    /// coordinator.entityName(forClass: Employee.self)   // "Employee"
    /// ```
    ///
    /// Libraries that take a class and run fetches for it (the `Query` module) use it to name the
    /// request's entity; it never registers anything.
    public func entityName(forClass type: ManagedObject.Type) -> String? {
        if let registered = entityName(for: type) { return registered }
        let className = String(describing: type)
        if let named = model.entities.first(where: { $0.className == className }) { return named.name }
        return model.entity(named: className)?.name
    }
}
