/// The proxy of an entity: the type `cdqi` generates one subclass of for each entity in a model.
///
/// A proxy stands for a key path, not for a value. Its properties are proxies too, created lazily with
/// the proxy as their parent, so `employee.department.name` builds the key path `"department.name"`:
///
/// ```swift
/// final class EmployeeAttribute: EntityAttribute, Subqueryable {
///     private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
///     private(set) lazy var department = DepartmentAttribute(key: "department", parent: self)
/// }
///
/// let employee = EmployeeAttribute()
/// employee.department.name.cdqiKeyPath  // "department.name"
/// employee.department.name.cdqiName     // "departmentName"
/// ```
///
/// Every member of this class starts with `cdqi`, so model attributes named `count`, `sum`,
/// `average`, `min`, `max`, `key` or `parent` become ordinary properties of a generated subclass.
///
/// Proxies are not `Sendable`: they are built and used inside one query-building closure.
open class EntityAttribute: KeyPathExpressionConvertible {
    /// The key of this proxy in its parent (`"department"`), or `nil` for the root of a query.
    public let cdqiKey: String?

    /// The proxy this one was reached from, or `nil` for a root.
    ///
    /// The reference is weak: a parent owns its children through its lazy properties, and a strong
    /// reference back would make every proxy tree a retain cycle. ``cdqiKeyPath`` and ``cdqiName``
    /// are worked out when the proxy is created, so they stay right after the parent is gone.
    public private(set) weak var cdqiParent: EntityAttribute?

    /// The dotted key path from the root of the query (`"department.name"`); empty for a root.
    public let cdqiKeyPath: String

    /// The name a dictionary result gives this key path: the first component as it is, the following
    /// ones capitalised (`"department.manager"` → `"departmentManager"`).
    public var cdqiName: String { KeyPathNaming.name(forKeyPath: cdqiKeyPath) }

    /// Creates a proxy for the property `key` of `parent`, or a root proxy when both are `nil`.
    ///
    /// - Parameters:
    ///   - key: The property's key in the parent entity.
    ///   - parent: The proxy of the entity that holds the property.
    public required init(key: String? = nil, parent: EntityAttribute? = nil) {
        cdqiKey = key
        cdqiParent = parent
        cdqiKeyPath = KeyPathNaming.keyPath(key: key, parentPath: parent?.cdqiKeyPath)
    }
}
