import CDQIPredicate

/// What a batch request returns, as Core Data's `NSBatchDeleteRequestResultType` and
/// `NSBatchUpdateRequestResultType` choose it.
public enum BatchResultType: Sendable, Hashable {
    /// Only whether the request ran (`.resultTypeStatusOnly`, `.statusOnlyResultType`).
    case statusOnly
    /// The number of rows the request matched (`.resultTypeCount`, `.updatedObjectsCountResultType`).
    case count
    /// The IDs of the objects the request matched (`.resultTypeObjectIDs`, `.updatedObjectIDsResultType`).
    case objectIDs
}

/// The result of ``ManagedObjectContext/execute(_:)-(BatchDeleteRequest)``: what the request's
/// ``BatchResultType`` asked for, about the rows its predicate matched (rows deleted by a cascade or
/// changed by a nullify are not counted, as in Core Data).
public enum BatchResult: Sendable, Hashable {
    /// The request ran.
    case status(Bool)
    /// The number of rows matched.
    case count(Int)
    /// The IDs of the objects matched, in the store's order.
    case objectIDs([ManagedObjectID])
}

/// Deletes every object a fetch request matches in the store, in one SQL statement per table, without
/// loading them: Core Data's `NSBatchDeleteRequest`.
///
/// Delete rules are applied in SQL as Core Data does since iOS 13 (nullify, cascade; see
/// ``ManagedObjectContext/execute(_:)-(BatchDeleteRequest)``). No validation runs. Sort descriptors are
/// ignored unless the request has a fetch limit or offset, which then chooses the rows deleted.
///
/// ```swift
/// var request = BatchDeleteRequest(fetchRequest: FetchRequest(
///     entityName: "Employee", predicate: try PredicateNode(format: "salary < %@", 1000)))
/// request.resultType = .count
/// let result = try context.execute(request)   // .count(n)
/// ```
public struct BatchDeleteRequest: Sendable {
    /// The rows to delete: its entity (and sub-entities when it includes them), predicate and window.
    public var fetchRequest: FetchRequest
    /// What ``ManagedObjectContext/execute(_:)-(BatchDeleteRequest)`` returns; `.statusOnly` by default.
    public var resultType: BatchResultType = .statusOnly

    /// Creates a request deleting what `fetchRequest` matches.
    public init(fetchRequest: FetchRequest) {
        self.fetchRequest = fetchRequest
    }
}

/// A new value for one attribute in a ``BatchUpdateRequest``.
public enum BatchUpdateValue: Sendable {
    /// A stored value, converted to the attribute's type (an integer for a double attribute, …).
    case stored(StoredValue)
    /// An expression over the row's own values, evaluated by SQLite for each row: a key path, a
    /// constant, arithmetic, a function the predicate compiler accepts (`salary * 1.1`). Key paths
    /// through to-one relationships are refused (they need a join).
    case expression(ExpressionNode)

    /// A Swift value (`nil` for NULL): an `Int`, `Double`, `String`, `Bool`, `Date`, `Data`, `UUID`,
    /// `URL` or `Decimal`, converted to the attribute's type as attribute setters convert it.
    case value((any Sendable)?)
}

/// Changes attributes of every object a predicate matches in the store, in one `UPDATE` statement,
/// without loading them: Core Data's `NSBatchUpdateRequest`. Each row's version (`Z_OPT`) grows by one,
/// so a context holding an object read before meets a conflict at its next save.
///
/// ```swift
/// var request = BatchUpdateRequest(
///     entityName: "Employee", predicate: try PredicateNode(format: "salary < 1000"),
///     propertiesToUpdate: ["salary": .expression(try ExpressionNode(format: "salary * 2"))])
/// request.resultType = .objectIDs
/// let result = try context.execute(request)
/// ```
public struct BatchUpdateRequest: Sendable {
    /// The entity whose rows change.
    public var entityName: String
    /// Which rows change; `nil` for all of them.
    public var predicate: PredicateNode?
    /// Whether rows of sub-entities change too (`true` by default, as in Core Data).
    public var includesSubentities = true
    /// The new values, by attribute name. Relationships cannot be set.
    public var propertiesToUpdate: [String: BatchUpdateValue]
    /// What ``ManagedObjectContext/execute(_:)-(BatchUpdateRequest)`` returns; `.statusOnly` by default.
    public var resultType: BatchResultType = .statusOnly

    /// Creates a request.
    public init(entityName: String, predicate: PredicateNode? = nil, propertiesToUpdate: [String: BatchUpdateValue]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }
}
