/// The commonest comparison shapes, evaluated without building intermediate ``PredicateValue``s:
/// `a.b.c op constant` through to-one relationships, and `ANY|ALL a.items.name op constant` (or
/// `IN {constants}`) through one to-many relationship. Anything else, and any value these paths do not
/// expect (a dictionary, a collection where a scalar was expected), returns `nil` so the general
/// evaluator decides, with the same result and the same errors.
extension Evaluator {
    func fastEvaluate(_ c: PredicateNode.Comparison) throws(PredicateEvaluationError) -> Bool? {
        guard case .keyPath(nil, let components) = c.lhs.kind, case .object(let start) = root else { return nil }
        let constant: StoredValue?
        let constants: [ExpressionNode]
        switch c.rhs.kind {
        case .constant(let value):
            constant = value
            constants = []
        default:
            guard c.op == .in, let elements = Evaluator.constantElements(of: c.rhs) else { return nil }
            constant = nil
            constants = elements
        }
        // Walk plain keys through to-one objects.
        var current = start
        var index = 0
        while index < components.count {
            guard case .key(let key) = components[index] else { return nil }
            index += 1
            switch try lookup(current, key, expression: c.lhs) {
            case .scalar(let x):
                guard c.modifier == .direct, x.isNull || index == components.count else { return nil }
                return Self.holds(c, x, constant, constants)
            case .object(let next):
                guard index < components.count else { return nil }
                current = next
            case .toMany(let objects):
                guard c.modifier != .direct, index < components.count else { return nil }
                // ANY/ALL: the rest of the path on each object, through to-one objects only.
                let any = c.modifier == .any
                for object in objects {
                    guard let x = try scalar(object, components, from: index, expression: c.lhs),
                        let result = Self.holds(c, x, constant, constants)
                    else { return nil }
                    if result == any { return any }
                }
                return !any
            default:
                return nil
            }
        }
        return nil
    }

    /// `x op constant`, or `x IN constants` when `constant` is `nil`; `nil` for an operator left to the
    /// general path.
    private static func holds(
        _ c: PredicateNode.Comparison, _ x: StoredValue, _ constant: StoredValue?, _ constants: [ExpressionNode]
    ) -> Bool? {
        guard let constant else { return Evaluator.isMember(.scalar(x), ofConstants: constants, options: c.options) }
        return compareScalars(c, x, constant)
    }

    /// The scalar at the end of `components[from...]` from `object`, through to-one objects only.
    private func scalar(
        _ object: any KeyValueAccessible, _ components: [KeyPathComponent], from start: Int, expression: ExpressionNode
    ) throws(PredicateEvaluationError) -> StoredValue? {
        var current = object
        var index = start
        while index < components.count {
            guard case .key(let key) = components[index] else { return nil }
            index += 1
            switch try lookup(current, key, expression: expression) {
            case .scalar(let value):
                return value.isNull || index == components.count ? value : nil
            case .object(let next):
                guard index < components.count else { return nil }
                current = next
            default:
                return nil
            }
        }
        return nil
    }

    /// `x op y` for two scalars, as ``compare(_:_:_:)`` decides it; `nil` for operators it leaves to
    /// the general path.
    static func compareScalars(_ c: PredicateNode.Comparison, _ x: StoredValue, _ y: StoredValue) -> Bool? {
        let options = c.options
        switch c.op {
        case .equalTo: return ValueComparison.scalarEqual(x, y, options: options)
        case .notEqualTo: return !ValueComparison.scalarEqual(x, y, options: options)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            if x.isNull || y.isNull {
                return x.isNull && y.isNull && (c.op == .lessThanOrEqual || c.op == .greaterThanOrEqual)
            }
            guard let order = ValueComparison.scalarOrder(x, y, options: options) else { return false }
            switch c.op {
            case .lessThan: return order < 0
            case .lessThanOrEqual: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let s) = x, case .string(let t) = y else { return false }
            switch c.op {
            case .beginsWith: return StringMatching.beginsWith(s, t, options: options)
            case .endsWith: return StringMatching.endsWith(s, t, options: options)
            case .like: return LikeMatcher.matches(s, pattern: t, options: options)
            default: return RegexMatcher.matches(s, pattern: t, options: options)
            }
        default:
            return nil
        }
    }
}
