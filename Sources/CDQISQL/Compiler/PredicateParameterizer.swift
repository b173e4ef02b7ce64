import CDQIPredicate

/// Separates a predicate's shape from its constants, so that one compilation serves every request of
/// the same shape ("cached per connection … running the same query shape again costs no parsing or
/// planning", DESIGN.md).
///
/// Each constant becomes the variable `\0<n>` (a name no format string can produce) in pre-order, and
/// its class (nil, integer, string, an object of an entity in this store, …) joins the cache key: every
/// decision the SQL compiler makes from a constant depends on its class only, never on its value.
package struct PredicateParameterizer {
    /// What the compiler may decide from a constant.
    package enum ConstantClass: Hashable {
        case null, integer, double, decimal, string, bool, date, data, uuid, uri
        case object(entity: String, sameStore: Bool, temporary: Bool)
    }

    package let storeIdentifier: String
    /// The dialect the predicate compiles to: PostgreSQL's MATCHES binds its translated pattern, not the slot.
    package let dialect: SQLDialect
    package private(set) var constants: [StoredValue] = []
    package private(set) var classes: [ConstantClass] = []
    /// False when the predicate holds something that must be evaluated anew for each fetch (`now()`).
    package private(set) var isCacheable = true

    package init(storeIdentifier: String, dialect: SQLDialect) {
        self.storeIdentifier = storeIdentifier
        self.dialect = dialect
    }

    package static func slotName(_ index: Int) -> String {
        index < slotNames.count ? slotNames[index] : "\u{0}\(index)"
    }

    /// The first slot names, made once: a fetch asks for them every time it runs.
    private static let slotNames = (0..<32).map { "\u{0}\($0)" }

    package static func slotIndex(_ name: String) -> Int? {
        guard name.first == "\u{0}" else { return nil }
        return Int(name.dropFirst())
    }

    package mutating func rewrite(_ predicate: PredicateNode) -> PredicateNode {
        switch predicate.kind {
        case .constant:
            return predicate
        case .and(let items):
            return .and(items.map { rewrite($0) })
        case .or(let items):
            return .or(items.map { rewrite($0) })
        case .not(let inner):
            return .not(rewrite(inner))
        case .comparison(var comparison):
            // PostgreSQL's MATCHES binds the pattern translated from the constant: not reusable.
            if dialect == .postgres, comparison.op == .matches { isCacheable = false }
            comparison.lhs = rewrite(comparison.lhs)
            comparison.rhs = rewrite(comparison.rhs)
            return PredicateNode(kind: .comparison(comparison))
        }
    }

    package mutating func rewrite(_ expression: ExpressionNode) -> ExpressionNode {
        switch expression.kind {
        case .constant(let value):
            constants.append(value)
            classes.append(Self.constantClass(value, storeIdentifier: storeIdentifier))
            return ExpressionNode(kind: .variable(Self.slotName(constants.count - 1)))
        case .constantCollection(let elements, let ordered):
            return ExpressionNode(kind: .constantCollection(elements.map { rewrite($0) }, ordered: ordered))
        case .aggregate(let elements):
            return ExpressionNode(kind: .aggregate(elements.map { rewrite($0) }))
        case .keyPath(let base, let components):
            return ExpressionNode(kind: .keyPath(base: base.map { rewrite($0) }, components: components))
        case .function(let function, let arguments):
            if function == .now || function == .random || function == .randomInRange { isCacheable = false }
            return ExpressionNode(kind: .function(function, arguments.map { rewrite($0) }))
        case .subquery(let collection, let variable, let predicate):
            return ExpressionNode(kind: .subquery(collection: rewrite(collection), variable: variable, predicate: rewrite(predicate)))
        case .ternary(let predicate, let a, let b):
            return ExpressionNode(kind: .ternary(rewrite(predicate), rewrite(a), rewrite(b)))
        case .cast(let inner, let type):
            return ExpressionNode(kind: .cast(rewrite(inner), type: type))
        case .evaluatedObject, .variable, .index, .methodCall, .assignment, .setOperation:
            // Variables are bound before a fetch; the rest is refused by the compiler, value or not.
            return expression
        }
    }

    /// What the compiler may decide from `value`, in a store named `storeIdentifier`.
    package static func constantClass(_ value: StoredValue, storeIdentifier: String) -> ConstantClass {
        switch value {
        case .null: .null
        case .integer: .integer
        case .double: .double
        case .decimal: .decimal
        case .string: .string
        case .bool: .bool
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        case .uri: .uri
        case .objectID(let reference):
            .object(entity: reference.entityName, sameStore: reference.storeIdentifier == storeIdentifier, temporary: reference.isTemporary)
        }
    }
}
