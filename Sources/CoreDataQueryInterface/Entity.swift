/// A class whose objects are instances of a model entity, tied to the proxy that queries it.
///
/// `cdqi` generates the conformance beside each entity's proxy:
///
/// ```swift
/// extension Employee: Entity {
///     typealias CDQIAttribute = EmployeeAttribute
/// }
/// ```
///
/// Members start with `cdqi`, so they never clash with the properties of a model's classes.
///
/// The conformance may not be isolated to an actor (the metatype is `Sendable`): the async query forms
/// (`ids(in:)`, `all(in:)`, …) run the query in another task.
public protocol Entity: AnyObject, SendableMetatype {
    /// The proxy type the query closures of this entity receive.
    associatedtype CDQIAttribute: EntityAttribute

    /// The name of the entity in the model. The default is the class name; generated code overrides
    /// it when the model gives the entity a different name from its class.
    static var cdqiEntityName: String { get }
}

extension Entity {
    /// The class name, without its module (`Employee` for `App.Employee`).
    public static var cdqiEntityName: String {
        ClassNames.name(of: Self.self)
    }
}
