import CDQIModel
import CDQIPredicate
import Foundation

extension PredicateSQLCompiler {
    // MARK: Operands

    /// Resolves a key-path expression without compiling anything else; `nil` for other expressions.
    package mutating func resolveSide(_ expression: ExpressionNode, in scope: Scope) throws(PredicateSQLError) -> Resolved? {
        guard case .keyPath(let base, let components) = expression.kind else { return nil }
        guard let start = try startScope(base, in: scope) else { return nil }
        return try resolve(components[...], from: start, text: expression.expressionFormat)
    }

    /// A single-valued operand.
    package mutating func operand(_ expression: ExpressionNode, in scope: Scope) throws(PredicateSQLError) -> Operand {
        let text = expression.expressionFormat
        switch expression.kind {
        case .constant(let value):
            return constant(value)
        case .evaluatedObject:
            return Operand(fragment: SQLFragment(dialect.column(scope.alias, "Z_PK")), kind: .object(table: scope.mapping.tableName))
        case .variable(let name):
            if let index = PredicateParameterizer.slotIndex(name), index < slotValues.count {
                var slot = constant(slotValues[index])
                slot.fragment = .bound(.slot(index, folding: []))
                slot.slot = index
                return slot
            }
            if let named = namedExpressions[name] { return named }
            guard let bound = variables[name] else { throw .unboundVariable(name) }
            return Operand(fragment: SQLFragment(dialect.column(bound.alias, "Z_PK")), kind: .object(table: bound.mapping.tableName))
        case .keyPath(.some(let base), let components):
            if case .subquery(let collection, let variable, let predicate) = base.kind {
                guard components == [.collectionOperator(.count)] else {
                    throw .unsupported("'\(text)': a SUBQUERY result can only be counted (SUBQUERY(…).@count)")
                }
                return try subqueryCount(collection, variable, predicate, in: scope)
            }
            fallthrough
        case .keyPath:
            guard case .keyPath(let base, let components) = expression.kind,
                let start = try startScope(base, in: scope)
            else { throw .unsupported("the key path '\(text)'") }
            switch try resolve(components[...], from: start, text: text) {
            case .single(let operand):
                return operand
            case .toMany(let path):
                guard path.rest.contains(where: { if case .collectionOperator = $0 { true } else { false } }) else {
                    throw .toManyKeyNotAllowed(keyPath: text)
                }
                return try aggregate(path)
            }
        case .function(let function, let arguments):
            return try self.function(function, arguments, text: text, in: scope)
        case .cast(let inner, let type):
            var value = try operand(inner, in: scope)
            switch (value.kind, type) {
            case (.date?, "NSNumber"), (.date?, "NSDecimalNumber"):
                value.kind = .number(isInteger: false)
            case (.number?, "NSDate"):
                value.kind = .date
            default:
                throw .unsupported("'\(text)': only casts between dates and numbers can run in SQL")
            }
            return value
        case .aggregate, .constantCollection:
            throw .typeMismatch(expression: text, reason: "a collection cannot be compared here")
        case .index, .methodCall, .subquery, .ternary, .assignment, .setOperation:
            throw .unsupported("'\(text)'")
        }
    }

    /// The scope a key path starts from: the current row, or a SUBQUERY variable's row.
    private func startScope(_ base: ExpressionNode?, in scope: Scope) throws(PredicateSQLError) -> Scope? {
        guard let base else { return scope }
        switch base.kind {
        case .evaluatedObject:
            return scope
        case .variable(let name):
            guard let bound = variables[name] else { throw .unboundVariable(name) }
            return bound
        default:
            return nil
        }
    }

    /// A constant bound as the store holds such values (§4.2).
    package func constant(_ value: StoredValue) -> Operand {
        let kind = ValueKind(constant: value)
        let bound: StoredValue
        switch value {
        case .bool(let flag): bound = .integer(flag ? 1 : 0)
        case .decimal(let decimal): bound = .double(StoredValue.decimalAsDouble(decimal))
        default: bound = value
        }
        return Operand(fragment: .bound(bound), kind: kind, constant: value)
    }

    // MARK: Key paths

    /// Follows a key path: attributes give columns, to-one relationships LEFT JOINs (one per path per
    /// scope), and the first to-many relationship stops the walk.
    package mutating func resolve(
        _ components: ArraySlice<KeyPathComponent>, from scope: Scope, text: String
    ) throws(PredicateSQLError) -> Resolved {
        var alias = scope.alias
        var entity = scope.entity
        var mapping = scope.mapping
        var joinKey = alias
        var remaining = components
        while let component = remaining.popFirst() {
            guard case .key(let key) = component else {
                throw .typeMismatch(expression: text, reason: "a collection operator needs a to-many relationship before it")
            }
            if let attribute = model.allAttributes(of: entity).first(where: { $0.name == key }) {
                guard remaining.isEmpty else {
                    throw .typeMismatch(expression: text, reason: "'\(key)' is an attribute; no key can follow it")
                }
                guard !attribute.isTransient else { throw .transientProperty(key: key, entity: entity.name) }
                guard let column = mapping.columns[key]?.value, let kind = ValueKind(attributeType: attribute.type) else {
                    throw .unsupported("'\(entity.name).\(key)' (\(attribute.type.rawValue) attributes cannot be compared in SQL)")
                }
                return .single(Operand(fragment: SQLFragment(dialect.column(alias, column)), kind: kind))
            }
            guard let relationship = model.allRelationships(of: entity).first(where: { $0.name == key }) else {
                throw .unknownKey(key: key, entity: entity.name, keyPath: text)
            }
            guard !relationship.isTransient else { throw .transientProperty(key: key, entity: entity.name) }
            guard let destination = model.entity(named: relationship.destinationEntityName),
                let destinationMapping = schema.entity(named: destination.name)
            else { throw .unknownKey(key: key, entity: entity.name, keyPath: text) }
            if relationship.isToMany {
                return .toMany(
                    ToManyPath(
                        ownerAlias: alias, ownerEntity: entity, relationship: relationship, destination: destination,
                        rest: remaining, text: text))
            }
            guard let foreignKey = mapping.columns[key]?.value else {
                throw .unsupported("'\(entity.name).\(key)' has no column")
            }
            if remaining.isEmpty {
                return .single(
                    Operand(
                        fragment: SQLFragment(dialect.column(alias, foreignKey)), kind: .object(table: destinationMapping.tableName)))
            }
            joinKey += ".\(key)"
            if let existing = scope.joinedAliases[joinKey] {
                alias = existing
            } else {
                let next = nextAlias()
                scope.joins.append(
                    "LEFT JOIN \(dialect.identifier(destinationMapping.tableName)) \(next) ON \(dialect.column(next, "Z_PK")) = \(dialect.column(alias, foreignKey))"
                )
                scope.joinedAliases[joinKey] = next
                alias = next
            }
            entity = destination
            mapping = destinationMapping
        }
        return .single(Operand(fragment: SQLFragment(dialect.column(alias, "Z_PK")), kind: .object(table: mapping.tableName)))
    }

    // MARK: To-many

    /// The rows of a to-many relationship: a new scope for the related row, the FROM text, and the
    /// condition tying it to its owner (a foreign key, or a join table for many-to-many).
    package mutating func toManySource(_ path: ToManyPath) throws(PredicateSQLError) -> (Scope, (from: String, correlation: String)) {
        guard let destinationMapping = schema.entity(named: path.destination.name),
            let ownerMapping = schema.entity(named: path.ownerEntity.name)
        else { throw .unsupported("'\(path.text)'") }
        let alias = nextAlias()
        let inner = Scope(alias: alias, entity: path.destination, mapping: destinationMapping)
        let table = destinationMapping.tableName
        if let inverseName = path.relationship.inverseName,
            let inverse = model.allRelationships(of: path.destination).first(where: { $0.name == inverseName }),
            !inverse.isToMany
        {
            guard let foreignKey = destinationMapping.columns[inverseName]?.value else {
                throw .unsupported("'\(path.text)': the inverse '\(inverseName)' has no column")
            }
            return (
                inner,
                ("\(dialect.identifier(table)) \(alias)", "\(dialect.column(alias, foreignKey)) = \(dialect.column(path.ownerAlias, "Z_PK"))")
            )
        }
        guard let joinName = ownerMapping.columns[path.relationship.name]?.joinTable,
            let join = schema.joinTables.first(where: { $0.name == joinName })
        else { throw .unsupported("'\(path.text)': no join table for '\(path.relationship.name)'") }
        let forward =
            join.relationship == path.relationship.name
            && ([path.ownerEntity.name] + model.ancestors(of: path.ownerEntity).map(\.name)).contains(join.sourceEntity)
        let (ownerColumn, memberColumn) =
            forward ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
        let joinAlias = nextAlias()
        return (
            inner,
            (
                "\(dialect.identifier(join.name)) \(joinAlias) JOIN \(dialect.identifier(table)) \(alias) ON \(dialect.column(alias, "Z_PK")) = \(dialect.column(joinAlias, memberColumn))",
                "\(dialect.column(joinAlias, ownerColumn)) = \(dialect.column(path.ownerAlias, "Z_PK"))"
            )
        )
    }

    /// The value of one related element: the related object itself, or the key path after the to-many step.
    package mutating func elementOperand(_ path: ToManyPath, in inner: Scope) throws(PredicateSQLError) -> Operand {
        if path.rest.isEmpty {
            return Operand(fragment: SQLFragment(dialect.column(inner.alias, "Z_PK")), kind: .object(table: inner.mapping.tableName))
        }
        switch try resolve(path.rest, from: inner, text: path.text) {
        case .single(let operand): return operand
        case .toMany: throw .multipleToManySteps(keyPath: path.text)
        }
    }

    /// `toMany.@count`, `toMany.attribute.@count`, `toMany.@sum.attribute`, `@avg`, `@min`, `@max`.
    package mutating func aggregate(_ path: ToManyPath) throws(PredicateSQLError) -> Operand {
        guard let position = path.rest.firstIndex(where: { if case .collectionOperator = $0 { true } else { false } }),
            case .collectionOperator(let op) = path.rest[position]
        else { throw .toManyKeyNotAllowed(keyPath: path.text) }
        let before = path.rest[..<position]
        let after = path.rest[(position + 1)...]
        let valuePath: ArraySlice<KeyPathComponent>
        switch op {
        case .count:
            guard after.isEmpty else { throw .unsupported("'\(path.text)': nothing may follow @count") }
            valuePath = before
        case .sum, .avg, .min, .max:
            guard before.isEmpty, !after.isEmpty else {
                throw .typeMismatch(expression: path.text, reason: "write @\(op.rawValue) right after the relationship, then the key")
            }
            valuePath = after
        default:
            throw .unsupported("'\(path.text)': @\(op.rawValue) works on objects in memory only")
        }
        let (inner, source) = try toManySource(path)
        var value: Operand?
        if !valuePath.isEmpty {
            var elementPath = path
            elementPath.rest = valuePath
            value = try elementOperand(elementPath, in: inner)
        }
        func subquery(_ expression: String, _ bindings: [SQLBinding] = []) -> SQLFragment {
            SQLFragment(
                "(SELECT \(expression) FROM \(source.from)\(inner.joinClause) WHERE \(source.correlation))",
                bindings: bindings)
        }
        if op == .count {
            guard let value else { return Operand(fragment: subquery("COUNT(*)"), kind: .number(isInteger: true)) }
            return Operand(
                fragment: subquery("COUNT(\(value.fragment.sql))", value.fragment.bindings), kind: .number(isInteger: true))
        }
        guard let value else { throw .toManyKeyNotAllowed(keyPath: path.text) }
        switch op {
        case .sum, .avg:
            guard case .number(let isInteger)? = value.kind else {
                throw .typeMismatch(expression: path.text, reason: "@\(op.rawValue) needs numbers")
            }
            // Doubles are summed exactly rounded, as the evaluator sums them; integers exactly by SQLite.
            if op == .avg {
                let average =
                    isInteger
                    ? dialect.integerAverage(value.fragment.sql)
                    : "cdqi_avg(\(dialect.doubleAggregateArgument(value.fragment.sql)))"
                return Operand(fragment: subquery(average, value.fragment.bindings), kind: .number(isInteger: false))
            }
            let argument = isInteger ? value.fragment.sql : dialect.doubleAggregateArgument(value.fragment.sql)
            let sum = subquery("\(isInteger ? "SUM" : "cdqi_sum")(\(argument))", value.fragment.bindings)
            return Operand(fragment: SQLFragment.template("COALESCE(%, 0)", sum), kind: .number(isInteger: isInteger))
        default:
            guard value.kind?.isOrdered == true else {
                throw .typeMismatch(expression: path.text, reason: "@\(op.rawValue) needs values with an order")
            }
            let function = op == .min ? "MIN" : "MAX"
            let collation = value.kind == .string ? dialect.codePointCollation : ""
            return Operand(
                fragment: subquery("\(function)(\(value.fragment.sql)\(collation))", value.fragment.bindings), kind: value.kind)
        }
    }

    /// `SUBQUERY(collection, $v, predicate).@count`: the related rows that satisfy the predicate, counted.
    package mutating func subqueryCount(
        _ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode, in scope: Scope
    ) throws(PredicateSQLError) -> Operand {
        guard case .toMany(let path)? = try resolveSide(collection, in: scope), path.rest.isEmpty else {
            throw .typeMismatch(expression: collection.expressionFormat, reason: "SUBQUERY needs a to-many relationship")
        }
        let (inner, source) = try toManySource(path)
        let previous = variables[variable]
        variables[variable] = inner
        defer { variables[variable] = previous }
        let condition = try compile(predicate, in: scope)
        return Operand(
            fragment: SQLFragment.template(
                "(SELECT COUNT(*) FROM \(source.from)\(inner.joinClause) WHERE \(source.correlation) AND %)", condition),
            kind: .number(isInteger: true))
    }

    // MARK: Functions

    /// An aggregate over the rows of a group (dictionary fetches): nil values are ignored, `count:`
    /// counts values and `sum:` of no values is 0 (predicate-language.md §4.5).
    private mutating func rowAggregate(
        _ function: BuiltinFunction, of argument: ExpressionNode, text: String, in scope: Scope
    ) throws(PredicateSQLError) -> Operand {
        let value = try operand(argument, in: scope)
        switch function {
        case .count:
            return Operand(fragment: SQLFragment.template("COUNT(%)", value.fragment), kind: .number(isInteger: true))
        case .sum, .average:
            guard case .number(let isInteger)? = value.kind else {
                throw .typeMismatch(expression: text, reason: "\(function.selector) needs numbers")
            }
            if function == .average {
                let average = dialect == .sqlite ? "AVG(%)" : "CAST(AVG(%) AS double precision)"
                return Operand(fragment: SQLFragment.template(average, value.fragment), kind: .number(isInteger: false))
            }
            return Operand(fragment: SQLFragment.template("COALESCE(SUM(%), 0)", value.fragment), kind: .number(isInteger: isInteger))
        default:
            guard value.kind?.isOrdered == true else {
                throw .typeMismatch(expression: text, reason: "\(function.selector) needs values with an order")
            }
            let name = function == .min ? "MIN" : "MAX"
            let collation = value.kind == .string ? dialect.codePointCollation : ""
            return Operand(fragment: SQLFragment.template("\(name)(%\(collation))", value.fragment), kind: value.kind)
        }
    }

    package mutating func function(
        _ function: BuiltinFunction, _ arguments: [ExpressionNode], text: String, in scope: Scope
    ) throws(PredicateSQLError) -> Operand {
        switch function {
        case .add, .subtract, .multiply, .divide, .negate:
            var operands: [Operand] = []
            for argument in arguments {
                let operand = try operand(argument, in: scope)
                if !operand.isNullConstant, operand.kind.map({ if case .number = $0 { true } else { false } }) != true {
                    throw .typeMismatch(expression: text, reason: "arithmetic needs numbers")
                }
                operands.append(operand)
            }
            let integers = operands.allSatisfy { $0.isNullConstant || $0.kind == .number(isInteger: true) }
            // Double-kind operands are made REAL, since SQLite returns whole Decimal values as integers.
            let parts = operands.map { integers ? $0.fragment : dialect.double($0.fragment) }
            let fragment: SQLFragment
            switch function {
            case .negate: fragment = SQLFragment.template("(- %)", parts[0])
            case .add: fragment = SQLFragment.template("(% + %)", parts[0], parts[1])
            case .subtract: fragment = SQLFragment.template("(% - %)", parts[0], parts[1])
            case .multiply: fragment = SQLFragment.template("(% * %)", parts[0], parts[1])
            default: fragment = dialect.divide(parts[0], parts[1])
            }
            return Operand(fragment: fragment, kind: .number(isInteger: integers))
        case .now:
            return constant(.date(now))
        case .noindex:
            guard let argument = arguments.first else { throw .unsupported("'\(text)'") }
            return try operand(argument, in: scope)
        case .count, .sum, .min, .max, .average:
            guard arguments.count == 1 else { throw .unsupported("'\(text)'") }
            guard case .toMany(var path)? = try resolveSide(arguments[0], in: scope) else {
                guard allowsRowAggregates else {
                    throw .unsupported("'\(text)': aggregate functions need a to-many key path in a predicate")
                }
                return try rowAggregate(function, of: arguments[0], text: text, in: scope)
            }
            let op: CollectionOperator =
                switch function {
                case .count: .count
                case .sum: .sum
                case .min: .min
                case .max: .max
                default: .avg
                }
            path.rest = op == .count ? path.rest + [.collectionOperator(.count)] : [.collectionOperator(op)] + path.rest
            return try aggregate(path)
        default:
            throw .unsupported("'\(text)'")
        }
    }
}
