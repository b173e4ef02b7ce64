import CDQIPredicate

/// Recognises a predicate of a shape already compiled: whether ``PredicateParameterizer/rewrite(_:)``
/// of a candidate would give a template (the parameterized predicate of a cached compilation), checked
/// in one walk that builds no rewritten tree and hashes nothing. On the way it collects the candidate's
/// constants, in slot order, and checks their classes against the template's.
///
/// It serves the fetch cache's "same shape as last time" check: a loop that runs one query shape with
/// new constants skips rewriting, hashing and comparing the whole predicate.
package struct PredicateShapeMatcher {
    /// The classes of the template's constants, in slot order.
    package let classes: [PredicateParameterizer.ConstantClass]
    package let storeIdentifier: String
    /// The candidate's constants matched so far, in slot order.
    package private(set) var constants: [StoredValue] = []
    /// False when the candidate holds something that must be evaluated anew for each fetch (`now()`).
    package private(set) var isCacheable = true

    package init(classes: [PredicateParameterizer.ConstantClass], storeIdentifier: String) {
        self.classes = classes
        self.storeIdentifier = storeIdentifier
        constants.reserveCapacity(classes.count)
    }

    /// Whether every constant of the template was matched, so that ``constants`` binds all its slots.
    package var isComplete: Bool { constants.count == classes.count }

    /// Whether `candidate`, its constants replaced by slots, is `template`.
    package mutating func matches(_ candidate: PredicateNode, template: PredicateNode) -> Bool {
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

    /// The same for an expression; constants are visited in ``PredicateParameterizer/rewrite(_:)``'s order.
    package mutating func matches(_ candidate: ExpressionNode, template: ExpressionNode) -> Bool {
        switch (candidate.kind, template.kind) {
        case (.constant(let value), .variable(let name)):
            let index = constants.count
            // Comparing the name is cheaper than parsing it, and stricter: only `slotName(index)` matches.
            guard name == PredicateParameterizer.slotName(index), index < classes.count,
                classes[index] == PredicateParameterizer.constantClass(value, storeIdentifier: storeIdentifier)
            else { return false }
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
}
