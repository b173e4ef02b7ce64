/// What the generator will write for one entity: its proxy class and, when the entity has a class of
/// its own, that class's conformance to `Entity`.
///
/// The proxies of composites (``isComposite``) use the same description: a proxy class that subclasses
/// `EntityAttribute` (a composite's fields are reached by key path, like a to-one relationship's), with
/// no conformance and no `Subqueryable`.
public struct EntityProxy: Sendable, Hashable {
    /// The entity's name in the model (for a composite proxy, the composite's name).
    public var entityName: String
    /// The proxy class's name (`EmployeeAttribute`).
    public var proxyName: String
    /// The proxy of the parent entity, which this proxy subclasses, or `nil` for a root entity (whose
    /// proxy subclasses `EntityAttribute` and adopts `Subqueryable`).
    public var superclassName: String?
    /// Whether the proxy is `final`: true unless another entity's proxy subclasses it.
    public var isFinal: Bool
    /// The properties the entity declares itself, in model order (attributes, then relationships);
    /// inherited properties come from the superclass proxy.
    public var properties: [ProxyProperty]
    /// The class that conforms to `Entity` with this proxy, or `nil` when there is none.
    public var conformingClassName: String?
    /// Whether this is the proxy of a model-level composite rather than of an entity.
    public var isComposite: Bool
    /// Whether the entity's generated class declares `cdqiEntityName` itself (so the conformance must not).
    public var classDeclaresEntityName: Bool

    /// Creates a proxy description.
    public init(
        entityName: String,
        proxyName: String,
        superclassName: String? = nil,
        isFinal: Bool = true,
        properties: [ProxyProperty] = [],
        conformingClassName: String? = nil,
        isComposite: Bool = false,
        classDeclaresEntityName: Bool = false
    ) {
        self.entityName = entityName
        self.proxyName = proxyName
        self.superclassName = superclassName
        self.isFinal = isFinal
        self.properties = properties
        self.conformingClassName = conformingClassName
        self.isComposite = isComposite
        self.classDeclaresEntityName = classDeclaresEntityName
    }

    /// The file the proxy is written to when each entity gets its own file.
    public var fileName: String { "\(proxyName).swift" }
}
