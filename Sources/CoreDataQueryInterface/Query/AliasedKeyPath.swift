/// A proxy's key path selected under a name of your choosing, instead of the name CDQI's rule gives it
/// (`department.name` → `departmentName`).
///
/// ```swift
/// try context.from(Employee.self).select { [alias($0.department.name, name: "team"), $0.salary.cdqiMax()] }
///     .groupBy { $0.department.name }.all()        // [["team": "Engineering", "salaryMax": 150000], …]
/// try context.from(Employee.self).select { ($0.lastName.cdqiAlias("surname"), $0.salary) }.all()   // typed
/// ```
public struct AliasedKeyPath<CDQIValue: QueryResultValue>: QuerySelectable {
    /// The key path, named as asked.
    public let cdqiSelection: QuerySelection

    /// Selects `keyPath` under `name`.
    public init(keyPath: String, name: String) {
        cdqiSelection = QuerySelection(keyPath: keyPath, name: name)
    }
}

extension QuerySelectable where Self: AttributeProxy {
    /// This key path selected under `name` (see ``AliasedKeyPath``).
    public func cdqiAlias(_ name: String) -> AliasedKeyPath<CDQIValue> {
        AliasedKeyPath(keyPath: cdqiKeyPath, name: name)
    }
}

/// The proxy's key path selected under `name` (see ``AliasedKeyPath``).
public func alias<P: AttributeProxy & QuerySelectable>(_ proxy: P, name: String) -> AliasedKeyPath<P.CDQIValue> {
    proxy.cdqiAlias(name)
}
