import Foundation

/// Finds the query strings of a Swift file: `filter("…", …)`, `having("…", …)`, `order("…")`,
/// `select("…")`, `groupBy("…")` on a query, and `PredicateNode(format: "…", …)`, with the entity each
/// applies to when the source shows it. A textual search over tokens, not a type checker: a call whose
/// receiver's entity cannot be seen (a query passed in as a parameter) is still found, with no entity.
struct QueryStringFinder {
    private let tokens: [SwiftToken]
    /// For each `(`, the index of its `)`; for each `)`, its `(`.
    private var partner: [Int: Int] = [:]
    /// Variables assigned a query of a known entity: name → class name.
    private var variables: [String: String] = [:]

    static let predicateMethods: Set<String> = ["filter", "having"]
    static let keyPathMethods: Set<String> = ["order", "select", "groupBy"]

    init(source: String) {
        tokens = SwiftLexer.tokens(of: source)
        var open: [Int] = []
        for (index, token) in tokens.enumerated() {
            if token.isPunctuation("(") {
                open.append(index)
            } else if token.isPunctuation(")"), let start = open.popLast() {
                partner[start] = index
                partner[index] = start
            }
        }
        collectVariables()
    }

    /// The calls in source order.
    func calls() -> [QueryStringCall] {
        var found: [QueryStringCall] = []
        for index in tokens.indices {
            if let call = chainCall(at: index) ?? predicateNodeCall(at: index) { found.append(call) }
        }
        return found
    }

    private func token(_ index: Int) -> SwiftToken? { tokens.indices.contains(index) ? tokens[index] : nil }

    /// `.method("…", …)` with `index` at the dot.
    private func chainCall(at index: Int) -> QueryStringCall? {
        guard tokens[index].isPunctuation("."), let method = token(index + 1)?.identifier,
            Self.predicateMethods.contains(method) || Self.keyPathMethods.contains(method),
            token(index + 2)?.isPunctuation("(") == true, let close = partner[index + 2]
        else { return nil }
        let arguments = split(from: index + 3, to: close)
        guard let first = arguments.first, first.count == 1, let format = stringArgument(first[0]) else { return nil }
        let entity = receiverEntity(before: index)
        if Self.keyPathMethods.contains(method) {
            let strings = arguments.compactMap { $0.count == 1 ? stringArgument($0[0]) : nil }
            return QueryStringCall(kind: .keyPaths(method: method), strings: strings, arguments: [], entity: entity)
        }
        return QueryStringCall(
            kind: method == "having" ? .having : .predicate, strings: [format],
            arguments: arguments.dropFirst().map(argument), entity: entity)
    }

    /// `PredicateNode(format: "…", …)` with `index` at `PredicateNode`.
    private func predicateNodeCall(at index: Int) -> QueryStringCall? {
        guard tokens[index].isIdentifier("PredicateNode"), token(index + 1)?.isPunctuation("(") == true,
            let close = partner[index + 1], token(index + 2)?.isIdentifier("format") == true,
            token(index + 3)?.isPunctuation(":") == true
        else { return nil }
        let arguments = split(from: index + 4, to: close)
        guard let first = arguments.first, first.count == 1, let format = stringArgument(first[0]) else { return nil }
        var rest = Array(arguments.dropFirst())
        // `PredicateNode(format: "…", argumentArray: [a, b])`.
        if let array = rest.first, array.count >= 3, tokens[array[0]].isIdentifier("argumentArray"), tokens[array[1]].isPunctuation(":"),
            tokens[array[2]].isPunctuation("[")
        {
            let elements = array.dropFirst(3).dropLast()
            rest = splitList(Array(elements))
        }
        return QueryStringCall(kind: .predicate, strings: [format], arguments: rest.map(argument), entity: enclosingEntity(of: index))
    }

    /// The entity of the request or query the predicate at `index` is an argument of.
    private func enclosingEntity(of index: Int) -> String? {
        // The call whose argument list holds the predicate: its unmatched `(`.
        guard case .openParenthesis(let position) = walkBack(from: index - 1, visit: { _, _ in nil }),
            let name = token(position - 1)?.identifier
        else { return nil }
        if name == "FetchRequest", let close = partner[position] { return requestEntity(from: position + 1, to: close) }
        if Self.predicateMethods.contains(name), token(position - 2)?.isPunctuation(".") == true {
            return receiverEntity(before: position - 2)
        }
        return nil
    }

    /// `entityName: "X"` among a `FetchRequest(…)`'s arguments.
    private func requestEntity(from start: Int, to end: Int) -> String? {
        for argument in split(from: start, to: end) where argument.count == 3 {
            if tokens[argument[0]].isIdentifier("entityName"), let name = tokens[argument[2]].literalString { return name }
        }
        return nil
    }

    /// The entity of the query a chained call at `dot` applies to: found by walking back along the chain
    /// (`context.from(Employee.self)`, `Query<Employee, Employee>()`, `Query.from(Employee.self)`), or from
    /// the variable the chain starts with.
    private func receiverEntity(before dot: Int) -> String? {
        let found = walkBack(from: dot - 1, stopsAtAssignment: true) { position, depth in
            let current = tokens[position]
            if let entity = entityPattern(at: position) { return .found(entity) }
            if depth == 0, let name = current.identifier, token(position + 1)?.isPunctuation(".") == true,
                !(token(position - 1)?.isPunctuation(".") ?? false), let entity = variables[name]
            {
                return .found(entity)
            }
            if depth == 0, current.startsLine, !current.isPunctuation(".") { return .stop }
            return nil
        }
        if case .found(let entity) = found { return entity }
        return nil
    }

    /// How a backward walk ended.
    private enum WalkEnd {
        /// `visit` found the entity.
        case found(String)
        /// `visit` or a statement boundary ended it.
        case stop
        /// It reached the unmatched `(` at this index: the walk started inside that call's arguments.
        case openParenthesis(Int)
    }

    /// Walks back from `start` over the tokens of one expression, brackets and all, calling `visit` with
    /// each token's index and its depth inside the brackets met on the way (a non-nil answer ends the
    /// walk). It ends at an unmatched `(`, or at `{`, `}`, `;` (and `=` when `stopsAtAssignment`) outside
    /// brackets.
    private func walkBack(
        from start: Int, stopsAtAssignment: Bool = false, visit: (Int, Int) -> WalkEnd?
    ) -> WalkEnd {
        var position = start
        var depth = 0
        while position >= 0 {
            let current = tokens[position]
            if current.isPunctuation(")") {
                depth += 1
            } else if current.isPunctuation("(") {
                if depth == 0 { return .openParenthesis(position) }
                depth -= 1
            } else if depth == 0,
                current.isPunctuation("{") || current.isPunctuation("}") || current.isPunctuation(";")
                    || (stopsAtAssignment && current.isPunctuation("="))
            {
                return .stop
            }
            if let end = visit(position, depth) { return end }
            position -= 1
        }
        return .stop
    }

    /// `from(X.self)`, `Query<X` or `FetchRequest(entityName: "X"` starting at `index`.
    private func entityPattern(at index: Int) -> String? {
        guard let name = tokens[index].identifier else { return nil }
        if name == "from", token(index + 1)?.isPunctuation("(") == true, let entity = token(index + 2)?.identifier,
            token(index + 3)?.isPunctuation(".") == true, token(index + 4)?.isIdentifier("self") == true
        {
            return entity
        }
        if name == "Query", token(index + 1)?.isPunctuation("<") == true, let entity = token(index + 2)?.identifier {
            return entity
        }
        if name == "FetchRequest", token(index + 1)?.isPunctuation("(") == true, let close = partner[index + 1] {
            return requestEntity(from: index + 2, to: close)
        }
        return nil
    }

    /// `let q = …from(X.self)…`, `var q = …`, and parameters or properties declared `q: Query<X, …>`:
    /// the entity of each variable's query.
    private mutating func collectVariables() {
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            if let name = tokens[index].identifier, token(index + 1)?.isPunctuation(":") == true,
                token(index + 2)?.isIdentifier("Query") == true, let entity = entityPattern(at: index + 2)
            {
                variables[name] = entity
                continue
            }
            guard tokens[index].isIdentifier("let") || tokens[index].isIdentifier("var"),
                let name = token(index + 1)?.identifier
            else { continue }
            // The statement: to the next token that starts a line at this depth and is not a chained call.
            var position = index + 2
            var depth = 0
            while position < tokens.count {
                let current = tokens[position]
                if current.isPunctuation("(") || current.isPunctuation("[") || current.isPunctuation("{") { depth += 1 }
                if current.isPunctuation(")") || current.isPunctuation("]") || current.isPunctuation("}") {
                    depth -= 1
                    if depth < 0 { break }
                }
                if depth == 0, current.startsLine, !current.isPunctuation("."), position > index + 2 { break }
                if let entity = entityPattern(at: position) {
                    variables[name] = entity
                    break
                }
                position += 1
            }
        }
    }

    /// The token indices of each top-level argument in `start..<end` (split at commas outside brackets).
    private func split(from start: Int, to end: Int) -> [[Int]] {
        guard start < end else { return [] }
        return splitList(Array(start..<end))
    }

    private func splitList(_ indices: [Int]) -> [[Int]] {
        var arguments: [[Int]] = [[]]
        var depth = 0
        for index in indices {
            let current = tokens[index]
            if current.isPunctuation("(") || current.isPunctuation("[") || current.isPunctuation("{") { depth += 1 }
            if current.isPunctuation(")") || current.isPunctuation("]") || current.isPunctuation("}") { depth -= 1 }
            if depth == 0, current.isPunctuation(",") {
                arguments.append([])
            } else {
                arguments[arguments.count - 1].append(index)
            }
        }
        return arguments.filter { !$0.isEmpty }
    }

    private func stringArgument(_ index: Int) -> QueryStringCall.StringArgument? {
        let token = tokens[index]
        guard case .string(let value, false, let isMultiline) = token.kind else { return nil }
        return QueryStringCall.StringArgument(value: value, line: token.line, column: token.column, isMultiline: isMultiline)
    }

    /// A format argument's value when it is a literal (`"Ann"`, `42`, `-1.5`, `true`, `nil`).
    private func argument(_ indices: [Int]) -> QueryStringCall.Argument {
        var parts = indices.map { tokens[$0] }
        var negative = false
        if parts.count == 2, parts[0].isPunctuation("-") {
            negative = true
            parts.removeFirst()
        }
        guard parts.count == 1 else { return .unknown }
        switch parts[0].kind {
        case .string(let value, false, _) where !negative: return .string(value)
        case .number(let text):
            let digits = text.replacingOccurrences(of: "_", with: "")
            if let integer = Int64(digits) { return .integer(negative ? -integer : integer) }
            if let double = Double(digits) { return .double(negative ? -double : double) }
            return .unknown
        case .identifier("true") where !negative: return .bool(true)
        case .identifier("false") where !negative: return .bool(false)
        case .identifier("nil") where !negative: return .null
        default: return .unknown
        }
    }
}
