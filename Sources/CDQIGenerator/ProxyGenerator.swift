import CDQIModel

/// Turns a managed object model into the Swift source of its CDQI proxies.
///
/// For each entity it writes a proxy class (`EmployeeAttribute`) with one lazy property per attribute
/// and relationship, and makes the entity's class conform to `Entity`:
///
/// ```swift
/// import CoreDataQueryInterface
///
/// nonisolated final class EmployeeAttribute: EntityAttribute, Subqueryable {
///     private(set) lazy var firstName = StringAttribute(key: "firstName", parent: self)
///     private(set) lazy var department = DepartmentAttribute(key: "department", parent: self)
/// }
///
/// nonisolated extension Employee: Entity {
///     typealias CDQIAttribute = EmployeeAttribute
/// }
/// ```
///
/// `nonisolated` (Swift 6.1+) lets the proxies compile in modules whose default isolation is the main
/// actor, where a subclass of the nonisolated `EntityAttribute` would otherwise be rejected; elsewhere
/// it changes nothing.
///
/// A sub-entity's proxy subclasses its parent's proxy, so it inherits the parent's properties and can
/// stand wherever the parent's proxy is expected; only proxies nothing subclasses are `final`.
/// Composite attributes get a proxy per model composite (`AddressCompositeAttribute`), so
/// `$0.address.street` builds the key path `address.street`.
///
/// It also plans the entity classes (``ProxyGeneration/entityClasses``): a `ManagedObject` subclass
/// with typed properties for each entity whose code generation is `class` (or for every entity with
/// ``ObjectClassSelection/all``), an extension with the properties for `category` entities, and an
/// enum that builds the model in code and registers the classes (``ProxyGeneration/modelTypeName``).
/// Classes follow the model's inheritance; then only the root class of a hierarchy conforms to
/// `Entity`, and each generated class names its own entity with `class var cdqiEntityName`.
///
/// Whatever cannot be generated as the model says (a clash with a runtime type, a name that is not a
/// Swift identifier, a class shared by several entities, an attribute type with no proxy) is either
/// generated under a name that works or left out, and each case gives a warning in
/// ``ProxyGeneration/diagnostics`` that says why and what to do. The output holds no dates: the same
/// model and options always give the same bytes.
public struct ProxyGenerator: Sendable {
    /// How the source is written.
    public var options: GeneratorOptions

    /// Creates a generator.
    public init(options: GeneratorOptions = GeneratorOptions()) {
        self.options = options
    }

    /// Plans the proxies of `model`.
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - modelName: The model's name (the bundle's base name, `"Company"`), used in the header comment
    ///     and in the name of the merged file.
    ///   - earlierVersions: The versions of the model's bundle before `model`, oldest first, for the
    ///     embedded model to carry (``ProxyGeneration/earlierVersions``); empty (the default) for a model
    ///     of one version, or to carry none.
    /// - Returns: The proxies and the warnings; ask it for the files.
    public func generate(
        _ model: ManagedObjectModel, modelName: String, earlierVersions: [ManagedObjectModel] = []
    ) -> ProxyGeneration {
        var planner = ProxyPlanner(model: model, options: options)
        let plan = planner.plan(modelName: modelName)
        return ProxyGeneration(
            modelName: modelName,
            versionName: model.versionName,
            options: options,
            proxies: plan.proxies,
            diagnostics: plan.diagnostics,
            shadowedRuntimeNames: plan.shadowedRuntimeNames,
            entityClasses: plan.objects.classes,
            modelTypeName: plan.objects.modelTypeName,
            model: model,
            classDiagnostics: plan.classDiagnostics,
            earlierVersions: earlierVersions
        )
    }
}
