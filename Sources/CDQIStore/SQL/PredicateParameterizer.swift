import CDQIPredicate

/// Separates a predicate's shape from its constants, so that one compilation serves every request of
/// the same shape ("cached per connection … running the same query shape again costs no parsing or
/// planning", DESIGN.md).
///
/// Each constant becomes the variable `\0<n>` (a name no format string can produce) in pre-order, and
/// its class (nil, integer, string, an object of an entity in this store, …) joins the cache key: every
/// decision the SQL compiler makes from a constant depends on its class only, never on its value.
struct PredicateParameterizer {
    /// What the compiler may decide from a constant.
    enum ConstantClass: Hashable {
        case null, integer, double, decimal, string, bool, date, data, uuid, uri
        case object(entity: String, sameStore: Bool, temporary: Bool)
    }

    let storeIdentifier: String
    private(set) var constants: [StoredValue] = []
    private(set) var classes: [ConstantClass] = []
    /// False when the predicate holds something that must be evaluated anew for each fetch (`now()`).
    private(set) var isCacheable = true

    init(storeIdentifier: String) {
        self.storeIdentifier = storeIdentifier
    }

    static func slotName(_ index: Int) -> String {
        index < slotNames.count ? slotNames[index] : "\u{0}\(index)"
    }

    /// The first slot names, made once: a fetch asks for them every time it runs.
    private static let slotNames = (0..<32).map { "\u{0}\($0)" }

    static func slotIndex(_ name: String) -> Int? {
        guard name.first == "\u{0}" else { return nil }
        return Int(name.dropFirst())
    }

    mutating func rewrite(_ predicate: PredicateNode) -> PredicateNode {
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
            comparison.lhs = rewrite(comparison.lhs)
            comparison.rhs = rewrite(comparison.rhs)
            return PredicateNode(kind: .comparison(comparison))
        }
    }

    mutating func rewrite(_ expression: ExpressionNode) -> ExpressionNode {
        switch expression.kind {
        case .constant(let value):
            constants.append(value)
            classes.append(constantClass(value))
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

    // MARK: Matching a rewritten predicate

    /// When set, ``matches(_:template:)`` checks each constant's class against this list (the
    /// template's) instead of collecting ``classes``, so matching builds no second array.
    private(set) var expectedClasses: [ConstantClass]?

    /// A parameterizer for matching against a template whose constants have these classes.
    init(storeIdentifier: String, expectedClasses: [ConstantClass]) {
        self.storeIdentifier = storeIdentifier
        self.expectedClasses = expectedClasses
        constants.reserveCapacity(expectedClasses.count)
    }

    /// Whether ``rewrite(_:)`` of `candidate` would return `template`, collecting the candidate's
    /// constants and their classes as `rewrite` does, without building the rewritten tree. Lets a
    /// fetch of the shape that ran last skip rewriting, hashing and comparing the whole predicate.
    mutating func matches(_ candidate: PredicateNode, template: PredicateNode) -> Bool {
        switch (candidate.kind, template.kind) {
        case (.constant(let a), .constant(let b)):
            return a == b
        case (.and(let a), .and(let b)), (.or(let a), .or(let b)):
            return matchesAll(a, b)
        case (.not(let a), .not(let b)):
            return matches(a, template: b)
        case (.comparison(let a), .comparison(let b)):
            return a.modifier == b.modifier && a.op == b.op && a.options == b.options
                && matches(a.lhs, template: b.lhs) && matches(a.rhs, template: b.rhs)
        default:
            return false
        }
    }

    /// The same for an expression; constants are collected in ``rewrite(_:)``'s order.
    mutating func matches(_ candidate: ExpressionNode, template: ExpressionNode) -> Bool {
        switch (candidate.kind, template.kind) {
        case (.constant(let value), .variable(let name)):
            let index = constants.count
            // Comparing the name is cheaper than parsing it, and stricter: only `slotName(index)` matches.
            guard name == Self.slotName(index) else { return false }
            if let expectedClasses {
                guard index < expectedClasses.count, expectedClasses[index] == constantClass(value) else { return false }
            } else {
                classes.append(constantClass(value))
            }
            constants.append(value)
            return true
        case (.constantCollection(let a, let aOrdered), .constantCollection(let b, let bOrdered)):
            return aOrdered == bOrdered && matchesAll(a, b)
        case (.aggregate(let a), .aggregate(let b)):
            return matchesAll(a, b)
        case (.keyPath(let aBase, let aComponents), .keyPath(let bBase, let bComponents)):
            guard aComponents == bComponents else { return false }
            switch (aBase, bBase) {
            case (nil, nil): return true
            case let (a?, b?): return matches(a, template: b)
            default: return false
            }
        case (.function(let aFunction, let a), .function(let bFunction, let b)):
            if aFunction == .now || aFunction == .random || aFunction == .randomInRange { isCacheable = false }
            return aFunction == bFunction && matchesAll(a, b)
        case (.subquery(let aCollection, let aVariable, let aPredicate), .subquery(let bCollection, let bVariable, let bPredicate)):
            return aVariable == bVariable && matches(aCollection, template: bCollection) && matches(aPredicate, template: bPredicate)
        case (.ternary(let aPredicate, let a1, let a2), .ternary(let bPredicate, let b1, let b2)):
            return matches(aPredicate, template: bPredicate) && matches(a1, template: b1) && matches(a2, template: b2)
        case (.cast(let a, let aType), .cast(let b, let bType)):
            return aType == bType && matches(a, template: b)
        case (.evaluatedObject, _), (.variable, _), (.index, _), (.methodCall, _), (.assignment, _), (.setOperation, _):
            // `rewrite` leaves these as they are.
            return candidate == template
        default:
            return false
        }
    }

    private mutating func matchesAll(_ candidates: [PredicateNode], _ templates: [PredicateNode]) -> Bool {
        guard candidates.count == templates.count else { return false }
        for (candidate, template) in zip(candidates, templates) where !matches(candidate, template: template) { return false }
        return true
    }

    private mutating func matchesAll(_ candidates: [ExpressionNode], _ templates: [ExpressionNode]) -> Bool {
        guard candidates.count == templates.count else { return false }
        for (candidate, template) in zip(candidates, templates) where !matches(candidate, template: template) { return false }
        return true
    }

    private func constantClass(_ value: StoredValue) -> ConstantClass {
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
