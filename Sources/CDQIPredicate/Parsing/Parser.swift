/// A recursive-descent parser for the predicate format language (§2), with an explicit depth limit so
/// that hostile input produces an error instead of exhausting the stack.
struct Parser {
    struct Failure: Error {
        var message: String
        var offset: Int
    }

    /// Nesting deeper than this (parentheses, unary operators, NOT chains, function arguments) is an error.
    static let maximumDepth = 200

    var tokens: [Token]
    var index = 0
    let arguments: [Any?]
    var argumentIndex = 0
    var depth = 0
    let source: [UInt8]

    init(source: [UInt8], arguments: [Any?]) throws(Failure) {
        self.source = source
        self.arguments = arguments
        do {
            tokens = try Lexer.tokenize(source)
        } catch {
            throw Failure(message: error.message, offset: error.offset)
        }
    }

    // MARK: Token helpers

    var current: Token { tokens[index] }

    func peekKind(_ ahead: Int = 0) -> Token.Kind {
        let i = index + ahead
        return i < tokens.count ? tokens[i].kind : .end
    }

    mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    func isPunctuation(_ p: Punctuation) -> Bool {
        if case .punctuation(let q) = current.kind { return p == q }
        return false
    }

    func isKeyword(_ k: Keyword) -> Bool {
        if case .keyword(let q) = current.kind { return k == q }
        return false
    }

    mutating func accept(_ p: Punctuation) -> Bool {
        if isPunctuation(p) {
            _ = advance()
            return true
        }
        return false
    }

    mutating func expect(_ p: Punctuation, _ context: @autoclosure () -> String) throws(Failure) {
        guard accept(p) else {
            throw Failure(message: "expected '\(p.rawValue)' \(context()), found \(describe(current))", offset: current.start)
        }
    }

    /// The source text of a token, for messages.
    func text(of token: Token) -> String {
        String(decoding: source[token.start..<token.end], as: UTF8.self)
    }

    func describe(_ token: Token) -> String {
        if token.kind == .end { return "the end of the format string" }
        return "'\(text(of: token))'"
    }

    /// The text of the token before the current one (for "after 'X'" messages).
    var previousText: String {
        index > 0 ? text(of: tokens[index - 1]) : ""
    }

    mutating func enter() throws(Failure) {
        depth += 1
        if depth > Parser.maximumDepth {
            throw Failure(
                message: "the format string is nested too deeply (more than \(Parser.maximumDepth) levels)",
                offset: current.start)
        }
    }

    mutating func leave() { depth -= 1 }

    // MARK: Entry points

    mutating func parseWholePredicate() throws(Failure) -> PredicateNode {
        if current.kind == .end { throw Failure(message: "the format string is empty", offset: 0) }
        let predicate = try parsePredicate()
        guard current.kind == .end else {
            throw Failure(message: "unexpected \(describe(current)) after a complete predicate", offset: current.start)
        }
        return predicate
    }

    mutating func parseWholeExpression() throws(Failure) -> ExpressionNode {
        if current.kind == .end { throw Failure(message: "the format string is empty", offset: 0) }
        let expression = try parseExpression()
        guard current.kind == .end else {
            throw Failure(message: "unexpected \(describe(current)) after a complete expression", offset: current.start)
        }
        return expression
    }

    // MARK: Predicates

    /// A parenthesised group in predicate position may turn out to hold an expression (`(a + 1) * 2 > 3`).
    enum Group {
        case predicate(PredicateNode)
        case expression(ExpressionNode)
    }

    mutating func parsePredicate() throws(Failure) -> PredicateNode {
        let start = current.start
        switch try parseOr(allowBareExpression: false) {
        case .predicate(let p): return p
        case .expression: throw Failure(message: "expected a predicate, found an expression", offset: start)
        }
    }

    mutating func parseOr(allowBareExpression: Bool) throws(Failure) -> Group {
        let first = try parseAnd(allowBareExpression: allowBareExpression)
        guard case .predicate(let p) = first else { return first }
        var items = [p]
        while isKeyword(.or) || isPunctuation(.orOr) {
            _ = advance()
            items.append(try parseAndPredicate())
        }
        return .predicate(items.count == 1 ? p : .or(items))
    }

    mutating func parseAndPredicate() throws(Failure) -> PredicateNode {
        let start = current.start
        guard case .predicate(let p) = try parseAnd(allowBareExpression: false) else {
            throw Failure(message: "expected a predicate", offset: start)
        }
        return p
    }

    mutating func parseAnd(allowBareExpression: Bool) throws(Failure) -> Group {
        let first = try parseNot(allowBareExpression: allowBareExpression)
        guard case .predicate(let p) = first else { return first }
        var items = [p]
        while isKeyword(.and) || isPunctuation(.andAnd) {
            _ = advance()
            items.append(try parseNotPredicate())
        }
        return .predicate(items.count == 1 ? p : .and(items))
    }

    mutating func parseNotPredicate() throws(Failure) -> PredicateNode {
        let start = current.start
        guard case .predicate(let p) = try parseNot(allowBareExpression: false) else {
            throw Failure(message: "expected a predicate", offset: start)
        }
        return p
    }

    mutating func parseNot(allowBareExpression: Bool) throws(Failure) -> Group {
        if isKeyword(.not) || isPunctuation(.bang) {
            try enter()
            defer { leave() }
            let notToken = advance()
            if current.kind == .end {
                throw Failure(message: "expected a predicate after '\(text(of: notToken))'", offset: current.start)
            }
            return .predicate(.not(try parseNotPredicate()))
        }
        return try parsePrimaryPredicate(allowBareExpression: allowBareExpression)
    }

    mutating func parsePrimaryPredicate(allowBareExpression: Bool) throws(Failure) -> Group {
        switch current.kind {
        case .keyword(.truePredicate):
            _ = advance()
            return .predicate(.truePredicate)
        case .keyword(.falsePredicate):
            _ = advance()
            return .predicate(.falsePredicate)
        case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
            let token = advance()
            guard case .keyword(let keyword) = token.kind else { return .predicate(.falsePredicate) }
            let modifier: ComparisonModifier = keyword == .all ? .all : .any
            if current.kind == .end {
                throw Failure(message: "expected an expression after '\(text(of: token))'", offset: current.start)
            }
            let lhs = try parseExpression()
            let comparison = try parseComparison(modifier: modifier, lhs: lhs)
            return .predicate(keyword == .none ? .not(comparison) : comparison)
        case .punctuation(.openParen):
            try enter()
            defer { leave() }
            _ = advance()
            let inner = try parseOr(allowBareExpression: true)
            try expect(.closeParen, "to close the parenthesis")
            switch inner {
            case .predicate(let p):
                if startsBinaryOrComparisonOperator() {
                    throw Failure(message: "a predicate cannot be used as an expression operand", offset: current.start)
                }
                return .predicate(p)
            case .expression(let e):
                let lhs = try continueExpression(from: e)
                if allowBareExpression && isPunctuation(.closeParen) { return .expression(lhs) }
                return .predicate(try parseComparison(modifier: .direct, lhs: lhs))
            }
        case .end:
            throw Failure(message: "expected a predicate", offset: current.start)
        default:
            let lhs = try parseExpression()
            if allowBareExpression && isPunctuation(.closeParen) { return .expression(lhs) }
            return .predicate(try parseComparison(modifier: .direct, lhs: lhs))
        }
    }

    func startsBinaryOrComparisonOperator() -> Bool {
        if comparisonOperator(current.kind) != nil || binaryOperator(current.kind) != nil { return true }
        return isPunctuation(.dot) || isPunctuation(.openBracket)
    }

    func comparisonOperator(_ kind: Token.Kind) -> ComparisonOperator? {
        switch kind {
        case .punctuation(.equal): return .equalTo
        case .punctuation(.notEqual): return .notEqualTo
        case .punctuation(.less): return .lessThan
        case .punctuation(.lessEqual): return .lessThanOrEqual
        case .punctuation(.greater): return .greaterThan
        case .punctuation(.greaterEqual): return .greaterThanOrEqual
        case .keyword(.in): return .in
        case .keyword(.contains): return .contains
        case .keyword(.beginsWith): return .beginsWith
        case .keyword(.endsWith): return .endsWith
        case .keyword(.like): return .like
        case .keyword(.matches): return .matches
        case .keyword(.between): return .between
        case .keyword(.utiConformsTo): return .utiConformsTo
        case .keyword(.utiEquals): return .utiEquals
        case .selector(let s): return .customSelector(s)
        default: return nil
        }
    }

    mutating func parseComparison(modifier: ComparisonModifier, lhs: ExpressionNode) throws(Failure) -> PredicateNode {
        guard let op = comparisonOperator(current.kind) else {
            if current.kind == .end {
                throw Failure(message: "expected a comparison operator after '\(previousText)'", offset: current.start)
            }
            if case .keyword(let k) = current.kind, k == .caseInsensitive || k == .ci || k == .tokenMatches {
                throw Failure(message: "'\(text(of: current))' is reserved and not supported", offset: current.start)
            }
            throw Failure(message: "expected a comparison operator, found \(describe(current))", offset: current.start)
        }
        let opToken = advance()
        var options: ComparisonOptions = []
        if isPunctuation(.openBracket) {
            guard op.acceptsOptions else {
                throw Failure(message: "'\(text(of: opToken))' takes no options", offset: current.start)
            }
            options = try parseOptions()
        }
        guard canStartExpression(current.kind) else {
            let after = options.isEmpty ? text(of: opToken) : previousText
            let found = current.kind == .end ? "" : ", found \(describe(current))"
            throw Failure(message: "expected an expression after '\(after)'\(found)", offset: current.start)
        }
        let rhsStart = current.start
        let rhs = try parseExpression()
        if op == .matches,
            case .constant(.string(let pattern)) = rhs.kind, !pattern.isEmpty
        {
            let folded =
                options.effectiveFolding.contains(.diacriticInsensitive)
                ? StringFolding.fold(pattern, options: .diacriticInsensitive) : pattern
            if let problem = RegexMatcher.validate(
                pattern: folded,
                caseInsensitive: options.effectiveFolding.contains(.caseInsensitive))
            {
                throw Failure(message: "invalid regular expression for MATCHES: \(problem)", offset: rhsStart)
            }
        }
        return .comparison(lhs, op, rhs, modifier: modifier, options: options)
    }

    mutating func parseOptions() throws(Failure) -> ComparisonOptions {
        _ = advance()
        guard case .identifier(let letters) = current.kind else {
            throw Failure(message: "expected option letters (c, d, n, l) after '['", offset: current.start)
        }
        let lettersToken = advance()
        var options: ComparisonOptions = []
        for (i, letter) in letters.lowercased().enumerated() {
            let option: ComparisonOptions
            switch letter {
            case "c": option = .caseInsensitive
            case "d": option = .diacriticInsensitive
            case "n": option = .normalized
            case "l": option = .localeSensitive
            default:
                throw Failure(
                    message: "unknown comparison option '\(letter)' (expected c, d, n or l)",
                    offset: lettersToken.start + i)
            }
            if options.contains(option) {
                throw Failure(message: "comparison option '\(letter)' is repeated", offset: lettersToken.start + i)
            }
            options.insert(option)
        }
        try expect(.closeBracket, "to close the options")
        return options
    }
}
