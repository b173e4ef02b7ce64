import Foundation

extension PredicateNode {
    /// Evaluates the predicate against an object with the semantics of §3 (nil rules, mixed numbers,
    /// string options, ANY/ALL/NONE, collection operators, SUBQUERY, …).
    ///
    /// - Parameters:
    ///   - object: the evaluated object (`SELF`).
    ///   - variables: values for `$variables`.
    /// - Throws: ``PredicateEvaluationError`` naming the key path or expression that cannot be evaluated.
    public func evaluate(
        with object: any KeyValueAccessible,
        variables: [String: PredicateValue] = [:]
    ) throws(PredicateEvaluationError) -> Bool {
        try evaluate(withValue: .object(object), variables: variables)
    }

    /// Evaluates the predicate with any value as `SELF` (a number, a string, an array, …).
    public func evaluate(
        withValue value: PredicateValue,
        variables: [String: PredicateValue] = [:]
    ) throws(PredicateEvaluationError) -> Bool {
        try StaticCheck(bound: Set(variables.keys)).check(self)
        var evaluator = Evaluator(root: value, variables: variables)
        return try evaluator.evaluate(self)
    }
}

extension ExpressionNode {
    /// Evaluates the expression with `value` as `SELF`.
    public func evaluate(
        withValue value: PredicateValue = .null,
        variables: [String: PredicateValue] = [:]
    ) throws(PredicateEvaluationError) -> PredicateValue {
        try StaticCheck(bound: Set(variables.keys)).check(self)
        var evaluator = Evaluator(root: value, variables: variables)
        return try evaluator.value(self).value
    }
}

/// The in-memory evaluator.
struct Evaluator {
    /// A value, with whether it came through a to-many key path (§3.7).
    struct Evaluated {
        var value: PredicateValue
        var toMany: Bool = false
    }

    let root: PredicateValue
    var variables: [String: PredicateValue]
    /// Whether the shortcuts of `Evaluator+FastPath.swift` may answer (tests turn them off to check
    /// that both paths agree).
    var usesFastPath = true

    // MARK: Predicates

    mutating func evaluate(_ p: PredicateNode) throws(PredicateEvaluationError) -> Bool {
        switch p.kind {
        case .constant(let b): return b
        case .and(let items):
            for item in items where !(try evaluate(item)) { return false }
            return true
        case .or(let items):
            for item in items where try evaluate(item) { return true }
            return false
        case .not(let inner):
            return !(try evaluate(inner))
        case .comparison(let c):
            return try evaluate(c)
        }
    }

    mutating func evaluate(_ c: PredicateNode.Comparison) throws(PredicateEvaluationError) -> Bool {
        switch c.op {
        case .customSelector(let s): throw .unsupported("the custom selector '\(s)'")
        case .utiConformsTo, .utiEquals: throw .unsupported("'\(c.op.symbol)'")
        default: break
        }
        if usesFastPath, let result = try fastEvaluate(c) { return result }
        let lhs = try value(c.lhs)
        // `x IN {constants}` (the common shape of `IN %@`): test membership against the constants
        // directly instead of building a collection value for every evaluation.
        if c.op == .in, let constants = Evaluator.constantElements(of: c.rhs) {
            switch c.modifier {
            case .direct:
                if lhs.toMany { throw .toManyKeyNotAllowed(keyPath: c.lhs.expressionFormat) }
                return Evaluator.isMember(lhs.value, ofConstants: constants, options: c.options)
            case .any, .all:
                if lhs.value.isNull { return c.modifier == .all }
                // ANY/ALL on a value that is not a collection is the plain comparison (§3.7).
                guard let elements = lhs.value.elements else {
                    return Evaluator.isMember(lhs.value, ofConstants: constants, options: c.options)
                }
                for element in elements {
                    let holds = Evaluator.isMember(element, ofConstants: constants, options: c.options)
                    if c.modifier == .any && holds { return true }
                    if c.modifier == .all && !holds { return false }
                }
                return c.modifier == .all
            }
        }
        let rhs = try value(c.rhs)
        if rhs.toMany && c.op != .in { throw .toManyKeyNotAllowed(keyPath: c.rhs.expressionFormat) }
        switch c.modifier {
        case .direct:
            if lhs.toMany && c.op != .contains { throw .toManyKeyNotAllowed(keyPath: c.lhs.expressionFormat) }
            return try compare(c, lhs.value, rhs.value)
        case .any, .all:
            if lhs.value.isNull { return c.modifier == .all }
            // ANY/ALL on a value that is not a collection (an attribute, a to-one path, `$v.name` in a
            // SUBQUERY) is the plain comparison, as Core Data's SQL store takes it (§3.7).
            guard let elements = lhs.value.elements else { return try compare(c, lhs.value, rhs.value) }
            for element in elements {
                let holds = try compare(c, element, rhs.value)
                if c.modifier == .any && holds { return true }
                if c.modifier == .all && !holds { return false }
            }
            return c.modifier == .all
        }
    }

    /// The elements of a literal aggregate or `%@` collection made only of scalar constants.
    static func constantElements(of e: ExpressionNode) -> [ExpressionNode]? {
        let items: [ExpressionNode]
        switch e.kind {
        case .aggregate(let list): items = list
        case .constantCollection(let list, _): items = list
        default: return nil
        }
        for item in items {
            guard case .constant = item.kind else { return nil }
        }
        return items
    }

    /// §3.5 membership of `element` among scalar constants; a nil element is never a member.
    static func isMember(_ element: PredicateValue, ofConstants items: [ExpressionNode], options: ComparisonOptions) -> Bool {
        if element.isNull { return false }
        for item in items {
            guard case .constant(let y) = item.kind, !y.isNull else { continue }
            if case .scalar(let x) = element {
                if ValueComparison.scalarEqual(x, y, options: options) { return true }
            } else if ValueComparison.equal(element, .scalar(y), options: options) {
                return true
            }
        }
        return false
    }

    func compare(_ c: PredicateNode.Comparison, _ l: PredicateValue, _ r: PredicateValue) throws(PredicateEvaluationError) -> Bool {
        // Two scalars: the fast path's comparison (one definition of what each operator means).
        if case .scalar(let x) = l, case .scalar(let y) = r, let result = Self.compareScalars(c, x, y) { return result }
        let options = c.options
        switch c.op {
        case .equalTo: return ValueComparison.equal(l, r, options: options)
        case .notEqualTo: return !ValueComparison.equal(l, r, options: options)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            if l.isNull || r.isNull {
                return l.isNull && r.isNull && (c.op == .lessThanOrEqual || c.op == .greaterThanOrEqual)
            }
            guard let order = ValueComparison.order(l, r, options: options) else { return false }
            switch c.op {
            case .lessThan: return order < 0
            case .lessThanOrEqual: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        case .between:
            if r.isNull { return false }
            guard case .array(let bounds) = r, bounds.count == 2 else {
                throw .invalidBetweenBounds(expression: c.rhs.expressionFormat)
            }
            if l.isNull || bounds[0].isNull || bounds[1].isNull { return false }
            guard let low = ValueComparison.order(l, bounds[0], options: options),
                let high = ValueComparison.order(l, bounds[1], options: options)
            else { return false }
            return low >= 0 && high <= 0
        case .in: return ValueComparison.isMember(l, of: r, options: options)
        case .contains: return ValueComparison.isMember(r, of: l, options: options)
        case .beginsWith, .endsWith, .like, .matches:
            // Only two strings match (handled above); anything else does not.
            return false
        case .utiConformsTo, .utiEquals, .customSelector:
            throw .unsupported("'\(c.op.symbol)'")
        }
    }

    // MARK: Expressions

    mutating func value(_ e: ExpressionNode) throws(PredicateEvaluationError) -> Evaluated {
        switch e.kind {
        case .constant(let v):
            return Evaluated(value: .scalar(v))
        case .constantCollection(let items, let ordered):
            var values: [PredicateValue] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try value(item).value) }
            return Evaluated(value: ordered ? .array(values) : .set(values))
        case .aggregate(let items):
            var values: [PredicateValue] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try value(item).value) }
            return Evaluated(value: .array(values))
        case .evaluatedObject:
            return Evaluated(value: root)
        case .variable(let name):
            guard let v = variables[name] else { throw .unboundVariable(name) }
            return Evaluated(value: v)
        case .keyPath(let base, let components):
            let start = try base.map { b throws(PredicateEvaluationError) in try value(b) } ?? Evaluated(value: root)
            return try keyPath(start, components[...], expression: e)
        case .index(let base, let selector):
            return Evaluated(value: try index(try value(base).value, selector, expression: e))
        case .function(let f, let args):
            return Evaluated(value: try function(f, args, expression: e))
        case .methodCall(_, let selector, _):
            throw .unsupported("FUNCTION(…, \"\(selector)\")")
        case .subquery(let collection, let variable, let predicate):
            let source = try value(collection).value
            if source.isNull { return Evaluated(value: .array([])) }
            guard let elements = source.elements else {
                throw .typeMismatch(expression: collection.expressionFormat, reason: "SUBQUERY needs a collection")
            }
            var kept: [PredicateValue] = []
            var inner = self
            for element in elements {
                inner.variables[variable] = element
                if try inner.evaluate(predicate) { kept.append(element) }
            }
            return Evaluated(value: .array(kept))
        case .ternary(let p, let a, let b):
            return try evaluate(p) ? value(a) : value(b)
        case .cast(let inner, let type):
            let v = try value(inner).value
            guard case .scalar(let s) = v, let converted = ValueCasting.cast(s, to: type) else {
                throw .typeMismatch(expression: e.expressionFormat, reason: "the value cannot be converted to \(type)")
            }
            return Evaluated(value: .scalar(converted))
        case .assignment(let name, let inner):
            let v = try value(inner)
            variables[name] = v.value
            return v
        case .setOperation(let op, let a, let b):
            let x = try collectionElements(try value(a).value, expression: a)
            let y = try collectionElements(try value(b).value, expression: b)
            func member(_ v: PredicateValue, _ list: [PredicateValue]) -> Bool {
                list.contains { ValueComparison.equal($0, v, options: []) }
            }
            var result: [PredicateValue] = []
            switch op {
            case .union:
                for v in x + y where !member(v, result) { result.append(v) }
            case .intersect:
                for v in x where member(v, y) && !member(v, result) { result.append(v) }
            case .minus:
                for v in x where !member(v, y) && !member(v, result) { result.append(v) }
            }
            return Evaluated(value: .set(result))
        }
    }

    func collectionElements(_ v: PredicateValue, expression: ExpressionNode) throws(PredicateEvaluationError) -> [PredicateValue] {
        if v.isNull { return [] }
        guard let elements = v.elements else {
            throw .typeMismatch(expression: expression.expressionFormat, reason: "a collection is required")
        }
        return elements
    }

    // MARK: Key paths

    func keyPath(
        _ start: Evaluated, _ components: ArraySlice<KeyPathComponent>,
        expression: ExpressionNode
    ) throws(PredicateEvaluationError) -> Evaluated {
        var current = start.value
        var toMany = start.toMany
        var rest = components
        while let component = rest.first {
            rest = rest.dropFirst()
            switch component {
            case .key(let key):
                current = try step(current, key, toMany: &toMany, expression: expression)
            case .collectionOperator(let op):
                if op.requiresKeyPath && rest.isEmpty {
                    throw .typeMismatch(expression: expression.expressionFormat, reason: "@\(op.rawValue) needs a key path after it")
                }
                let result = try collectionOperator(op, on: current, path: op == .count ? [] : rest, expression: expression)
                if op != .count { return Evaluated(value: result) }
                current = result
                toMany = false
            }
        }
        return Evaluated(value: current, toMany: toMany)
    }

    /// One key step. Through a to-many relationship it maps over the related objects, keeping one
    /// element per object (nil included, §3.1).
    func step(
        _ value: PredicateValue, _ key: String, toMany: inout Bool,
        expression: ExpressionNode
    ) throws(PredicateEvaluationError) -> PredicateValue {
        switch value {
        case .scalar(.null):
            return .null
        case .object(let object):
            let result = try lookup(object, key, expression: expression)
            if case .toMany = result {
                if toMany { throw .multipleToManySteps(keyPath: expression.expressionFormat) }
                toMany = true
            }
            return result
        case .dictionary(let d):
            return d[key] ?? .null
        case .toMany(let objects):
            toMany = true
            var results: [PredicateValue] = []
            results.reserveCapacity(objects.count)
            for object in objects {
                let result = try lookup(object, key, expression: expression)
                if case .toMany = result { throw .multipleToManySteps(keyPath: expression.expressionFormat) }
                results.append(result)
            }
            return .array(results)
        case .array(let items), .set(let items):
            var results: [PredicateValue] = []
            results.reserveCapacity(items.count)
            for item in items {
                var nested = false
                let result = try step(item, key, toMany: &nested, expression: expression)
                if nested && toMany { throw .multipleToManySteps(keyPath: expression.expressionFormat) }
                results.append(result)
            }
            if case .set = value { return .set(results) }
            return .array(results)
        case .scalar:
            throw .typeMismatch(expression: expression.expressionFormat, reason: "cannot look up key '\(key)' on a scalar value")
        }
    }

    func lookup(
        _ object: any KeyValueAccessible, _ key: String,
        expression: ExpressionNode
    ) throws(PredicateEvaluationError) -> PredicateValue {
        do {
            return try object.predicateValue(forKey: key)
        } catch {
            if case .unknownKey(let k, _) = error { throw .unknownKey(key: k, keyPath: expression.expressionFormat) }
            throw error
        }
    }

    func collectionOperator(
        _ op: CollectionOperator, on value: PredicateValue, path: ArraySlice<KeyPathComponent>,
        expression: ExpressionNode
    ) throws(PredicateEvaluationError) -> PredicateValue {
        let elements: [PredicateValue]
        if value.isNull {
            elements = []
        } else if let e = value.elements {
            elements = e
        } else {
            throw .typeMismatch(
                expression: expression.expressionFormat,
                reason: "@\(op.rawValue) needs a collection, the key path gives a single value")
        }
        var mapped: [PredicateValue] = []
        mapped.reserveCapacity(elements.count)
        for element in elements {
            mapped.append(
                path.isEmpty
                    ? element
                    : try keyPath(Evaluated(value: element), path, expression: expression).value)
        }
        switch op {
        case .distinctUnionOfObjects, .unionOfObjects:
            var result: [PredicateValue] = []
            for v in mapped where !v.isNull {
                if op == .distinctUnionOfObjects && result.contains(where: { ValueComparison.equal($0, v, options: []) }) { continue }
                result.append(v)
            }
            return .array(result)
        case .distinctUnionOfArrays, .unionOfArrays, .distinctUnionOfSets:
            var result: [PredicateValue] = []
            for v in mapped where !v.isNull {
                guard let inner = v.elements else {
                    throw .typeMismatch(expression: expression.expressionFormat, reason: "@\(op.rawValue) needs collections")
                }
                for item in inner where !item.isNull {
                    if op != .unionOfArrays && result.contains(where: { ValueComparison.equal($0, item, options: []) }) { continue }
                    result.append(item)
                }
            }
            return op == .distinctUnionOfSets ? .set(result) : .array(result)
        case .count:
            return .scalar(.integer(Int64(mapped.reduce(0) { $0 + ($1.isNull ? 0 : 1) })))
        case .sum, .avg, .min, .max:
            let scalars = try scalarValues(mapped, expression: expression)
            do {
                switch op {
                case .sum: return .scalar(try Aggregates.sum(scalars))
                case .avg: return .scalar(try Aggregates.average(scalars))
                case .min: return .scalar(try Aggregates.extreme(scalars, wantMax: false))
                default: return .scalar(try Aggregates.extreme(scalars, wantMax: true))
                }
            } catch {
                throw aggregateError(error, name: "@\(op.rawValue)", expression: expression)
            }
        }
    }

    func scalarValues(_ values: [PredicateValue], expression: ExpressionNode) throws(PredicateEvaluationError) -> [StoredValue] {
        var scalars: [StoredValue] = []
        scalars.reserveCapacity(values.count)
        for v in values {
            guard case .scalar(let s) = v else {
                throw .typeMismatch(expression: expression.expressionFormat, reason: "the aggregate needs scalar values")
            }
            scalars.append(s)
        }
        return scalars
    }

    func aggregateError(_ error: Aggregates.Failure, name: String, expression: ExpressionNode) -> PredicateEvaluationError {
        switch error.reason {
        case .overflow: return .integerOverflow(expression: expression.expressionFormat)
        case .notNumeric: return .typeMismatch(expression: expression.expressionFormat, reason: "\(name) needs numbers")
        case .unordered: return .typeMismatch(expression: expression.expressionFormat, reason: "\(name) needs values of one kind")
        }
    }

    // MARK: Index

    mutating func index(
        _ base: PredicateValue, _ selector: ExpressionNode.IndexSelector,
        expression: ExpressionNode
    ) throws(PredicateEvaluationError) -> PredicateValue {
        if base.isNull { return .null }
        let ordered: [PredicateValue]?
        switch base {
        case .array(let items): ordered = items
        case .toMany(let objects): ordered = objects.map { .object($0) }
        default: ordered = nil
        }
        switch selector {
        case .size:
            guard let elements = base.elements else {
                throw .typeMismatch(expression: expression.expressionFormat, reason: "[SIZE] needs a collection")
            }
            return .scalar(.integer(Int64(elements.count)))
        case .first, .last:
            guard let items = ordered else {
                throw .typeMismatch(expression: expression.expressionFormat, reason: "[FIRST] and [LAST] need an array")
            }
            return (selector == .first ? items.first : items.last) ?? .null
        case .at(let i):
            let key = try value(i).value
            if case .dictionary(let d) = base {
                guard case .scalar(.string(let k)) = key else {
                    throw .typeMismatch(expression: expression.expressionFormat, reason: "a dictionary index must be a string")
                }
                return d[k] ?? .null
            }
            guard let items = ordered else {
                throw .typeMismatch(expression: expression.expressionFormat, reason: "an index needs an array")
            }
            guard case .scalar(let s) = key, case .integer(let n)? = Number(s) else {
                throw .typeMismatch(expression: expression.expressionFormat, reason: "an array index must be an integer")
            }
            guard n >= 0, n < items.count else { throw .indexOutOfRange(expression: expression.expressionFormat) }
            return items[Int(n)]
        }
    }

    // MARK: Functions

    mutating func function(
        _ f: BuiltinFunction, _ args: [ExpressionNode],
        expression: ExpressionNode
    ) throws(PredicateEvaluationError) -> PredicateValue {
        func mismatch(_ reason: String) -> PredicateEvaluationError {
            .typeMismatch(expression: expression.expressionFormat, reason: reason)
        }
        switch f {
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev:
            let v = try value(args[0])
            if v.value.isNull { return f == .count ? .scalar(.integer(0)) : .null }
            guard let elements = v.value.elements else { throw mismatch("\(f.selector) needs a collection") }
            let scalars = try scalarValues(elements, expression: expression)
            do {
                switch f {
                case .sum: return .scalar(try Aggregates.sum(scalars))
                case .count: return .scalar(Aggregates.count(scalars))
                case .min: return .scalar(try Aggregates.extreme(scalars, wantMax: false))
                case .max: return .scalar(try Aggregates.extreme(scalars, wantMax: true))
                case .average: return .scalar(try Aggregates.average(scalars))
                case .median: return .scalar(try Aggregates.median(scalars))
                case .stddev: return .scalar(try Aggregates.standardDeviation(scalars))
                default: return .array(Aggregates.mode(scalars).map { .scalar($0) })
                }
            } catch {
                throw aggregateError(error, name: f.selector, expression: expression)
            }
        case .now:
            return .scalar(.date(secondsSinceReferenceDate: Date().timeIntervalSinceReferenceDate))
        case .random:
            return .scalar(.double(Double.random(in: 0..<1)))
        case .distanceToLocation:
            throw .unsupported("'distanceToLocation:fromLocation:'")
        case .uppercase, .lowercase:
            let v = try scalar(args[0], expression: expression)
            if v.isNull { return .null }
            guard case .string(let s) = v else { throw mismatch("\(f.selector) needs a string") }
            return .scalar(.string(f == .uppercase ? s.uppercased() : s.lowercased()))
        case .castObject:
            let v = try scalar(args[0], expression: expression)
            guard case .string(let type) = try scalar(args[1], expression: expression),
                let converted = ValueCasting.cast(v, to: type)
            else {
                throw mismatch("the value cannot be converted")
            }
            return .scalar(converted)
        case .randomInRange:
            let v = try scalar(args[0], expression: expression)
            if v.isNull { return .null }
            guard case .integer(let n)? = Number(v), n > 0 else { throw mismatch("random: needs a positive integer") }
            return .scalar(.integer(Int64.random(in: 0..<n)))
        default:
            break
        }
        var numbers: [Number] = []
        for arg in args {
            let v = try scalar(arg, expression: expression)
            if v.isNull { return .null }
            guard let n = Number(v) else { throw mismatch("\(describe(f)) needs numbers") }
            numbers.append(n)
        }
        let result =
            numbers.count == 2
            ? Arithmetic.binary(f, numbers[0], numbers[1])
            : (numbers.count == 1 ? Arithmetic.unary(f, numbers[0]) : nil)
        guard let result else { throw mismatch("\(describe(f)) needs integers") }
        return .scalar(result)
    }

    func describe(_ f: BuiltinFunction) -> String {
        if let symbol = f.infixOperator { return "'\(symbol)'" }
        return f == .negate ? "unary '-'" : "'\(f.selector)'"
    }

    mutating func scalar(_ e: ExpressionNode, expression: ExpressionNode) throws(PredicateEvaluationError) -> StoredValue {
        let v = try value(e)
        if v.toMany { throw .toManyKeyNotAllowed(keyPath: e.expressionFormat) }
        guard case .scalar(let s) = v.value else {
            throw .typeMismatch(expression: expression.expressionFormat, reason: "'\(e.expressionFormat)' is not a single value")
        }
        return s
    }
}
