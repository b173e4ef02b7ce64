import Foundation

extension Parser {
    /// Binary operators with their precedence (§2.2, E2–E8; set operators sit just above `:=`).
    func binaryOperator(_ kind: Token.Kind) -> (precedence: Int, make: BinaryMaker)? {
        switch kind {
        case .keyword(.union): return (2, .set(.union))
        case .keyword(.intersect): return (2, .set(.intersect))
        case .keyword(.minus): return (2, .set(.minus))
        case .punctuation(.pipe): return (3, .function(.bitwiseOr))
        case .punctuation(.caret): return (4, .function(.bitwiseXor))
        case .punctuation(.ampersand): return (5, .function(.bitwiseAnd))
        case .punctuation(.shiftLeft): return (6, .function(.leftShift))
        case .punctuation(.shiftRight): return (6, .function(.rightShift))
        case .punctuation(.plus): return (7, .function(.add))
        case .punctuation(.minus): return (7, .function(.subtract))
        case .punctuation(.star): return (8, .function(.multiply))
        case .punctuation(.slash): return (8, .function(.divide))
        case .punctuation(.power): return (9, .function(.raise))
        default: return nil
        }
    }

    enum BinaryMaker {
        case function(BuiltinFunction)
        case set(ExpressionNode.SetOperator)

        func make(_ lhs: ExpressionNode, _ rhs: ExpressionNode) -> ExpressionNode {
            switch self {
            case .function(let f): return .function(f, [lhs, rhs])
            case .set(let op): return ExpressionNode(kind: .setOperation(op, lhs, rhs))
            }
        }
    }

    func canStartExpression(_ kind: Token.Kind) -> Bool {
        switch kind {
        case .identifier, .collectionOperator, .variable, .selector, .string, .integer, .double, .specifier:
            return true
        case .keyword(let k):
            switch k {
            case .true, .yes, .false, .no, .null, .nil_, .self, .subquery, .function, .ternary, .cast, .fetch, .anyKey:
                return true
            default:
                return false
            }
        case .punctuation(let p):
            return p == .openParen || p == .openBrace || p == .minus || p == .tilde
        case .end:
            return false
        }
    }

    // MARK: Expressions

    mutating func parseExpression() throws(Failure) -> ExpressionNode {
        if case .variable(let name) = current.kind, case .punctuation(.assign) = peekKind(1) {
            try enter()
            defer { leave() }
            _ = advance()
            _ = advance()
            let value = try parseExpression()
            return ExpressionNode(kind: .assignment(variable: name, value))
        }
        let lhs = try parseUnary()
        return try parseBinary(minimumPrecedence: 2, lhs: lhs)
    }

    /// Continues an expression whose first primary (a parenthesised group) is already parsed.
    mutating func continueExpression(from primary: ExpressionNode) throws(Failure) -> ExpressionNode {
        let operand = try parsePostfix(primary)
        return try parseBinary(minimumPrecedence: 2, lhs: operand)
    }

    mutating func parseBinary(minimumPrecedence: Int, lhs: ExpressionNode) throws(Failure) -> ExpressionNode {
        var lhs = lhs
        while let (precedence, maker) = binaryOperator(current.kind), precedence >= minimumPrecedence {
            let opToken = advance()
            guard canStartExpression(current.kind) else {
                throw Failure(message: "expected an expression after '\(text(of: opToken))'", offset: current.start)
            }
            var rhs = try parseUnary()
            while let (next, _) = binaryOperator(current.kind), next > precedence {
                try enter()
                defer { leave() }
                rhs = try parseBinary(minimumPrecedence: precedence + 1, lhs: rhs)
            }
            lhs = maker.make(lhs, rhs)
        }
        return lhs
    }

    mutating func parseUnary() throws(Failure) -> ExpressionNode {
        try enter()
        defer { leave() }
        if isPunctuation(.minus) || isPunctuation(.tilde) {
            let token = advance()
            guard canStartExpression(current.kind) else {
                throw Failure(message: "expected an expression after '\(text(of: token))'", offset: current.start)
            }
            let operand = try parseUnary()
            return .function(token.kind == .punctuation(.minus) ? .negate : .onesComplement, [operand])
        }
        return try parsePostfix(try parsePrimary())
    }

    mutating func parsePostfix(_ base: ExpressionNode) throws(Failure) -> ExpressionNode {
        var expression = base
        while true {
            if isPunctuation(.dot) {
                // Collect the whole dotted run first, so the key path is built once.
                var components: [KeyPathComponent] = []
                while accept(.dot) { components.append(try parseKeyComponent()) }
                expression = .keyPath(components, on: expression)
            } else if isPunctuation(.openBracket) {
                try enter()
                defer { leave() }
                _ = advance()
                let selector: ExpressionNode.IndexSelector
                if case .punctuation(.closeBracket) = peekKind(1), case .keyword(let k) = current.kind,
                    k == .first || k == .last || k == .size
                {
                    _ = advance()
                    selector = k == .first ? .first : (k == .last ? .last : .size)
                } else {
                    guard canStartExpression(current.kind) else {
                        throw Failure(message: "expected an index after '['", offset: current.start)
                    }
                    selector = .at(try parseExpression())
                }
                try expect(.closeBracket, "to close the index")
                expression = .index(expression, selector)
            } else {
                return expression
            }
        }
    }

    mutating func parseKeyComponent() throws(Failure) -> KeyPathComponent {
        let token = current
        switch token.kind {
        case .identifier(let name):
            _ = advance()
            return .key(name)
        case .collectionOperator(let name):
            _ = advance()
            guard let op = CollectionOperator(rawValue: name) else {
                throw Failure(message: "unknown collection operator '@\(name)'", offset: token.start)
            }
            return .collectionOperator(op)
        case .keyword:
            throw Failure(
                message: "'\(text(of: token))' is a reserved word; write '#\(text(of: token))' to use it as a key",
                offset: token.start)
        default:
            throw Failure(message: "expected a key after '.', found \(describe(token))", offset: token.start)
        }
    }

    mutating func parsePrimary() throws(Failure) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .string(let s):
            _ = advance()
            return .constant(.string(s))
        case .integer(let i):
            _ = advance()
            return .constant(.integer(i))
        case .double(let d):
            _ = advance()
            return .constant(.double(d))
        case .identifier(let name):
            _ = advance()
            if isPunctuation(.openParen), source[token.start] != UInt8(ascii: "#") {
                return try parseFunctionCall(name: name, nameToken: token)
            }
            return .keyPath([.key(name)])
        case .selector(let name):
            _ = advance()
            guard isPunctuation(.openParen) else {
                throw Failure(message: "expected '(' after the function name '\(name)'", offset: current.start)
            }
            return try parseFunctionCall(name: name, nameToken: token)
        case .collectionOperator:
            return .keyPath([try parseKeyComponent()])
        case .variable(let name):
            _ = advance()
            return .variable(name)
        case .specifier(let spec):
            _ = advance()
            return try substitute(spec, token: token)
        case .punctuation(.openParen):
            try enter()
            defer { leave() }
            _ = advance()
            let inner = try parseExpression()
            try expect(.closeParen, "to close the parenthesis")
            return inner
        case .punctuation(.openBrace):
            try enter()
            defer { leave() }
            _ = advance()
            var elements: [ExpressionNode] = []
            if !accept(.closeBrace) {
                repeat {
                    elements.append(try parseExpression())
                } while accept(.comma)
                try expect(.closeBrace, "to close the aggregate")
            }
            return .aggregate(elements)
        case .keyword(let keyword):
            return try parseKeywordPrimary(keyword, token: token)
        default:
            if token.kind == .end, index > 0 {
                throw Failure(message: "expected an expression after '\(previousText)'", offset: token.start)
            }
            throw Failure(message: "expected an expression, found \(describe(token))", offset: token.start)
        }
    }

    mutating func parseKeywordPrimary(_ keyword: Keyword, token: Token) throws(Failure) -> ExpressionNode {
        switch keyword {
        case .true, .yes:
            _ = advance()
            return .constant(.bool(true))
        case .false, .no:
            _ = advance()
            return .constant(.bool(false))
        case .null, .nil_:
            _ = advance()
            return .null
        case .self:
            _ = advance()
            return .evaluatedObject
        case .subquery:
            try enter()
            defer { leave() }
            _ = advance()
            try expect(.openParen, "after SUBQUERY")
            let collection = try parseExpression()
            try expect(.comma, "after the SUBQUERY collection")
            guard case .variable(let name) = current.kind else {
                throw Failure(message: "expected a variable ($name) as the second SUBQUERY argument", offset: current.start)
            }
            _ = advance()
            try expect(.comma, "after the SUBQUERY variable")
            let predicate = try parsePredicate()
            try expect(.closeParen, "to close SUBQUERY")
            return ExpressionNode(kind: .subquery(collection: collection, variable: name, predicate: predicate))
        case .ternary:
            try enter()
            defer { leave() }
            _ = advance()
            try expect(.openParen, "after TERNARY")
            let condition = try parsePredicate()
            try expect(.comma, "after the TERNARY condition")
            let a = try parseExpression()
            try expect(.comma, "after the TERNARY true value")
            let b = try parseExpression()
            try expect(.closeParen, "to close TERNARY")
            return ExpressionNode(kind: .ternary(condition, a, b))
        case .function:
            try enter()
            defer { leave() }
            _ = advance()
            try expect(.openParen, "after FUNCTION")
            let target = try parseExpression()
            try expect(.comma, "after the FUNCTION target")
            guard case .string(let selector) = current.kind else {
                throw Failure(message: "the FUNCTION selector must be a string literal", offset: current.start)
            }
            _ = advance()
            var arguments: [ExpressionNode] = []
            while accept(.comma) { arguments.append(try parseExpression()) }
            try expect(.closeParen, "to close FUNCTION")
            return ExpressionNode(kind: .methodCall(target: target, selector: selector, arguments: arguments))
        case .cast:
            try enter()
            defer { leave() }
            _ = advance()
            try expect(.openParen, "after CAST")
            let value = try parseExpression()
            try expect(.comma, "after the CAST value")
            let typeToken = current
            let typeExpression = try parseExpression()
            guard case .constant(.string(let type)) = typeExpression.kind else {
                throw Failure(message: "the CAST type must be a string such as \"NSDate\"", offset: typeToken.start)
            }
            try expect(.closeParen, "to close CAST")
            guard ValueCasting.knownTypes.contains(type) else {
                throw Failure(message: "unsupported CAST type '\(type)'", offset: typeToken.start)
            }
            if case .constant(let constant) = value.kind {
                guard let folded = ValueCasting.cast(constant, to: type) else {
                    throw Failure(message: "cannot convert the constant to '\(type)'", offset: token.start)
                }
                return .constant(folded)
            }
            return ExpressionNode(kind: .cast(value, type: type))
        case .fetch, .anyKey:
            throw Failure(message: "'\(text(of: token))' is not supported", offset: token.start)
        default:
            if token.start == 0 || index == 0 {
                throw Failure(message: "expected an expression, found \(describe(token))", offset: token.start)
            }
            throw Failure(
                message: "expected an expression after '\(previousText)', found \(describe(token))",
                offset: token.start)
        }
    }

    mutating func parseFunctionCall(name: String, nameToken: Token) throws(Failure) -> ExpressionNode {
        try enter()
        defer { leave() }
        try expect(.openParen, "after the function name")
        var arguments: [ExpressionNode] = []
        if !accept(.closeParen) {
            repeat {
                arguments.append(try parseExpression())
            } while accept(.comma)
            try expect(.closeParen, "to close the function call")
        }
        guard let function = BuiltinFunction.resolve(name: name, argumentCount: arguments.count) else {
            throw Failure(message: "unknown function '\(name)' with \(arguments.count) argument(s)", offset: nameToken.start)
        }
        guard function.arity == arguments.count else {
            throw Failure(
                message: "function '\(function.selector)' takes \(function.arity) argument(s), not \(arguments.count)",
                offset: nameToken.start)
        }
        return .function(function, arguments)
    }

    // MARK: Argument substitution

    mutating func substitute(_ spec: FormatSpecifier, token: Token) throws(Failure) -> ExpressionNode {
        guard argumentIndex < arguments.count else {
            throw Failure(
                message: "not enough arguments: '\(spec.text)' needs argument \(argumentIndex + 1), but \(arguments.count) were given",
                offset: token.start)
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        let position = argumentIndex
        func wrongType(_ expected: String) -> Failure {
            Failure(
                message: "argument \(position) for '\(text(of: token))' must be \(expected), not \(FormatArgument.typeName(argument))",
                offset: token.start)
        }
        switch spec {
        case .object:
            if let expression = FormatArgument.expression(for: argument) { return expression }
            if let object = FormatArgument.unwrap(argument) as? KeyValueAccessible {
                guard let id = object.predicateObjectID else { throw wrongType("an object with an object ID") }
                return .constant(.objectID(id))
            }
            throw wrongType("a supported value")
        case .keyPath:
            let value = FormatArgument.unwrap(argument)
            if let path = value as? String {
                guard !path.isEmpty else { throw wrongType("a non-empty key path string") }
                return .keyPath(path)
            }
            if let expression = value as? ExpressionNode, case .keyPath = expression.kind { return expression }
            throw wrongType("a key path string")
        case .signed, .unsigned:
            guard let value = FormatArgument.unwrap(argument) else { throw wrongType("an integer") }
            if let b = value as? Bool { return .constant(.integer(b ? 1 : 0)) }
            guard let i = FormatArgument.integer(value) else { throw wrongType("an integer that fits in 64 bits") }
            return .constant(.integer(i))
        case .floating:
            guard let value = FormatArgument.unwrap(argument), let d = FormatArgument.floating(value) else {
                throw wrongType("a number")
            }
            return .constant(.double(d))
        case .cString:
            guard let value = FormatArgument.unwrap(argument) else { throw wrongType("a string") }
            if let s = value as? String { return .constant(.string(s)) }
            if let s = value as? Substring { return .constant(.string(String(s))) }
            throw wrongType("a string")
        case .character:
            guard let value = FormatArgument.unwrap(argument), let code = FormatArgument.characterCode(value) else {
                throw wrongType("a character")
            }
            return .constant(.integer(code))
        }
    }
}
