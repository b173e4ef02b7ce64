/// The checks made before evaluating any object (§3.10), so that errors do not depend on the data or
/// the branch reached: unsupported constructs, unbound variables, and literal BETWEEN bounds that are
/// not two elements.
struct StaticCheck {
    var bound: Set<String>

    func check(_ p: PredicateNode) throws(PredicateEvaluationError) {
        do {
            try walk(p)
        } catch {
            // Variables bound by `:=` somewhere in the predicate count as bound; collect them only
            // when needed, since they are rare.
            guard case .unboundVariable = error else { throw error }
            var assigned = Set<String>()
            collectAssignments(p, into: &assigned)
            var checker = self
            checker.bound.formUnion(assigned)
            try checker.walk(p)
        }
    }

    func check(_ e: ExpressionNode) throws(PredicateEvaluationError) {
        do {
            try walk(e)
        } catch {
            guard case .unboundVariable = error else { throw error }
            var assigned = Set<String>()
            collectAssignments(e, into: &assigned)
            var checker = self
            checker.bound.formUnion(assigned)
            try checker.walk(e)
        }
    }

    private func walk(_ p: PredicateNode) throws(PredicateEvaluationError) {
        switch p.kind {
        case .constant: return
        case .and(let items), .or(let items):
            for item in items { try walk(item) }
        case .not(let inner): try walk(inner)
        case .comparison(let c):
            switch c.op {
            case .customSelector(let s): throw .unsupported("the custom selector '\(s)'")
            case .utiConformsTo, .utiEquals: throw .unsupported("'\(c.op.symbol)'")
            case .between:
                if case .aggregate(let items) = c.rhs.kind, items.count != 2 {
                    throw .invalidBetweenBounds(expression: c.rhs.expressionFormat)
                }
                if case .constantCollection(let items, let ordered) = c.rhs.kind, items.count != 2 || !ordered {
                    throw .invalidBetweenBounds(expression: c.rhs.expressionFormat)
                }
            default: break
            }
            try walk(c.lhs)
            try walk(c.rhs)
        }
    }

    private func walk(_ e: ExpressionNode) throws(PredicateEvaluationError) {
        switch e.kind {
        case .constant, .evaluatedObject: return
        case .variable(let name):
            if !bound.contains(name) { throw .unboundVariable(name) }
        case .constantCollection(let items, _), .aggregate(let items):
            for item in items { try walk(item) }
        case .keyPath(let base, _):
            if let base { try walk(base) }
        case .index(let base, let selector):
            try walk(base)
            if case .at(let i) = selector { try walk(i) }
        case .function(let f, let args):
            if f == .distanceToLocation { throw .unsupported("'distanceToLocation:fromLocation:'") }
            for arg in args { try walk(arg) }
        case .methodCall(_, let selector, _):
            throw .unsupported("FUNCTION(…, \"\(selector)\")")
        case .subquery(let collection, let variable, let predicate):
            try walk(collection)
            var inner = self
            inner.bound.insert(variable)
            try inner.walk(predicate)
        case .ternary(let p, let a, let b):
            try walk(p)
            try walk(a)
            try walk(b)
        case .cast(let inner, _):
            try walk(inner)
        case .assignment(_, let inner):
            try walk(inner)
        case .setOperation(_, let a, let b):
            try walk(a)
            try walk(b)
        }
    }

    private func collectAssignments(_ p: PredicateNode, into names: inout Set<String>) {
        switch p.kind {
        case .constant: return
        case .and(let items), .or(let items):
            for item in items { collectAssignments(item, into: &names) }
        case .not(let inner): collectAssignments(inner, into: &names)
        case .comparison(let c):
            collectAssignments(c.lhs, into: &names)
            collectAssignments(c.rhs, into: &names)
        }
    }

    private func collectAssignments(_ e: ExpressionNode, into names: inout Set<String>) {
        switch e.kind {
        case .assignment(let name, let inner):
            names.insert(name)
            collectAssignments(inner, into: &names)
        case .constant, .evaluatedObject, .variable: return
        case .constantCollection(let items, _), .aggregate(let items), .function(_, let items):
            for item in items { collectAssignments(item, into: &names) }
        case .keyPath(let base, _):
            if let base { collectAssignments(base, into: &names) }
        case .index(let base, let selector):
            collectAssignments(base, into: &names)
            if case .at(let i) = selector { collectAssignments(i, into: &names) }
        case .methodCall(let target, _, let args):
            collectAssignments(target, into: &names)
            for arg in args { collectAssignments(arg, into: &names) }
        case .subquery(let collection, _, let predicate):
            collectAssignments(collection, into: &names)
            collectAssignments(predicate, into: &names)
        case .ternary(let p, let a, let b):
            collectAssignments(p, into: &names)
            collectAssignments(a, into: &names)
            collectAssignments(b, into: &names)
        case .cast(let inner, _):
            collectAssignments(inner, into: &names)
        case .setOperation(_, let a, let b):
            collectAssignments(a, into: &names)
            collectAssignments(b, into: &names)
        }
    }
}
