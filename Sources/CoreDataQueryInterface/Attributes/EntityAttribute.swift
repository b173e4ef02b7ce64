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
/// Its members, from ``AttributeProxy``, all start with `cdqi`, so model attributes named `count`, `sum`,
/// `average`, `min`, `max`, `key` or `parent` become ordinary properties of a generated subclass.
///
/// Proxies are not `Sendable`: they are built and used inside one query-building closure.
open class EntityAttribute: AttributeProxy {}
