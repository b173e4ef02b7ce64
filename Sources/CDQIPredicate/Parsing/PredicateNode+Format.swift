extension PredicateNode {
    /// Parses a predicate format string (§1–§2), substituting the arguments for the format specifiers
    /// outside quotes, left to right (`%@`, `%K`, `%d`, `%f`, `%s`, `%c`, …).
    ///
    /// ```swift
    /// let p = try PredicateNode(format: "salary > %@ AND department.name BEGINSWITH[cd] %@", 5000, "r")
    /// ```
    ///
    /// - Throws: ``PredicateParseError`` with the offset of the problem.
    public init(format: String, _ arguments: Any?...) throws(PredicateParseError) {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses a predicate format string with an array of arguments.
    public init(format: String, argumentArray: [Any?]) throws(PredicateParseError) {
        let bytes = Array(format.utf8)
        do {
            var parser = try Parser(source: bytes, arguments: argumentArray)
            self = try parser.parseWholePredicate()
        } catch {
            throw PredicateParseError(message: error.message, source: format, utf8Offset: error.offset)
        }
    }
}

extension ExpressionNode {
    /// Parses an expression format string (`"salary * 2"`); a predicate is an error here.
    public init(format: String, _ arguments: Any?...) throws(PredicateParseError) {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses an expression format string with an array of arguments.
    public init(format: String, argumentArray: [Any?]) throws(PredicateParseError) {
        let bytes = Array(format.utf8)
        do {
            var parser = try Parser(source: bytes, arguments: argumentArray)
            self = try parser.parseWholeExpression()
        } catch {
            throw PredicateParseError(message: error.message, source: format, utf8Offset: error.offset)
        }
    }
}

/// An error from ``PredicateNode/substitutingVariables(_:)``: a binding value of an unsupported type.
public struct VariableSubstitutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable whose value could not be converted.
    public let variable: String
    /// The type of the value.
    public let typeName: String
    public var description: String { "cannot substitute a value of type \(typeName) for $\(variable)" }
}

extension PredicateNode {
    /// Replaces `$variables` by the bound values (converted like `%@` arguments). Variables without a
    /// binding stay; a SUBQUERY's own variable is never replaced inside it.
    public func substitutingVariables(_ bindings: [String: Any?]) throws(VariableSubstitutionError) -> PredicateNode {
        var converted: [String: ExpressionNode] = [:]
        for (name, value) in bindings {
            guard let expression = FormatArgument.expression(for: value) else {
                throw VariableSubstitutionError(variable: name, typeName: FormatArgument.typeName(value))
            }
            converted[name] = expression
        }
        return VariableSubstitution(bindings: converted).apply(self)
    }
}

extension ExpressionNode {
    /// Replaces `$variables` by the bound values; see ``PredicateNode/substitutingVariables(_:)``.
    public func substitutingVariables(_ bindings: [String: Any?]) throws(VariableSubstitutionError) -> ExpressionNode {
        var converted: [String: ExpressionNode] = [:]
        for (name, value) in bindings {
            guard let expression = FormatArgument.expression(for: value) else {
                throw VariableSubstitutionError(variable: name, typeName: FormatArgument.typeName(value))
            }
            converted[name] = expression
        }
        return VariableSubstitution(bindings: converted).apply(self)
    }
}

/// Walks an AST replacing bound variables.
struct VariableSubstitution {
    var bindings: [String: ExpressionNode]

    func apply(_ p: PredicateNode) -> PredicateNode {
        switch p.kind {
        case .constant: return p
        case .comparison(let c):
            return .comparison(apply(c.lhs), c.op, apply(c.rhs), modifier: c.modifier, options: c.options)
        case .and(let items): return .and(items.map(apply))
        case .or(let items): return .or(items.map(apply))
        case .not(let inner): return .not(apply(inner))
        }
    }

    func apply(_ e: ExpressionNode) -> ExpressionNode {
        switch e.kind {
        case .constant, .evaluatedObject: return e
        case .constantCollection(let items, let ordered):
            return ExpressionNode(kind: .constantCollection(items.map(apply), ordered: ordered))
        case .variable(let name): return bindings[name] ?? e
        case .keyPath(let base, let components):
            guard let base else { return e }
            return .keyPath(components, on: apply(base))
        case .aggregate(let items): return .aggregate(items.map(apply))
        case .index(let base, let selector):
            if case .at(let i) = selector { return .index(apply(base), .at(apply(i))) }
            return .index(apply(base), selector)
        case .function(let f, let args): return .function(f, args.map(apply))
        case .methodCall(let target, let selector, let args):
            return ExpressionNode(kind: .methodCall(target: apply(target), selector: selector, arguments: args.map(apply)))
        case .subquery(let collection, let variable, let predicate):
            var inner = self
            inner.bindings[variable] = nil
            return ExpressionNode(
                kind: .subquery(
                    collection: apply(collection), variable: variable,
                    predicate: inner.apply(predicate)))
        case .ternary(let p, let a, let b):
            return ExpressionNode(kind: .ternary(apply(p), apply(a), apply(b)))
        case .cast(let value, let type):
            let v = apply(value)
            if case .constant(let c) = v.kind, let folded = ValueCasting.cast(c, to: type) { return .constant(folded) }
            return ExpressionNode(kind: .cast(v, type: type))
        case .assignment(let variable, let value):
            return ExpressionNode(kind: .assignment(variable: variable, apply(value)))
        case .setOperation(let op, let a, let b):
            return ExpressionNode(kind: .setOperation(op, apply(a), apply(b)))
        }
    }
}
