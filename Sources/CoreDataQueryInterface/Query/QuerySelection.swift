import CDQIPredicate
import CDQIStore

/// One selected column of a dictionary or typed query: the name its values have in the results, and
/// what the store fetches for it.
///
/// Names follow CDQI: a key path is named by its components, the first as it is and the others
/// capitalised (`department.name` → `departmentName`); an aggregate by its key path's name followed by
/// the function (`salary.cdqiMax()` → `salaryMax`), unless it was given an alias.
public struct QuerySelection: Hashable, Sendable {
    /// The key of the column's values in dictionary results.
    public let name: String
    /// What the store fetches.
    public let property: FetchedProperty

    /// A key path (an attribute, a to-one relationship, or a path through to-one relationships), named
    /// `name`, or by CDQI's rule when `name` is `nil`. The empty key path (the root proxy `$0`) is the
    /// object itself, named `objectID` unless `name` says otherwise (see ``evaluatedObject``).
    public init(keyPath: String, name: String? = nil) {
        if keyPath.isEmpty {
            let name = name.flatMap { $0.isEmpty ? nil : $0 } ?? "objectID"
            self.name = name
            property = .expression(ExpressionDescription(name: name, expression: .evaluatedObject, resultType: .objectID))
        } else {
            self.name = name ?? KeyPathNaming.name(forKeyPath: keyPath)
            property = .keyPath(keyPath)
        }
    }

    /// A computed column (an aggregate, a function of key paths) named `name`.
    public init(name: String, expression: ExpressionNode) {
        self.name = name
        property = .expression(ExpressionDescription(name: name, expression: expression))
    }

    /// The object itself (the root proxy `$0`; Core Data's evaluated object, `SELF`): its
    /// ``ManagedObjectID``, named `objectID`, as Core Data's dictionary fetches give for an
    /// `NSExpressionDescription` of `expressionForEvaluatedObject()`.
    ///
    /// ```swift
    /// try context.from(Employee.self).select { ($0, $0.lastName) }.all()  // [(ManagedObjectID?, String?)]
    /// try context.from(Employee.self).select { [alias($0, name: "id"), $0.lastName] }.all()  // [["id": …, "lastName": …]]
    /// ```
    public static let evaluatedObject = QuerySelection(keyPath: "")

    /// The key under which the store returns the column's values.
    var storeKey: String { property.name }
}
