import CDQIPredicate
import CDQITestSupport
import Foundation

/// Generates random predicate ASTs (seeded) covering every node kind, for the round-trip property test.
struct RandomASTGenerator {
    var rng: SeededGenerator

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    static let keys = [
        "name", "age", "salary", "department", "employees", "tags", "size", "first", "in", "like", "x_1", "_k",
        "any", "SELF2", "count", "sum", "now",
    ]
    static let variables = ["e", "d", "minAge", "first", "v_2"]

    mutating func identifier() -> String { pick(Self.keys) }

    mutating func string() -> String {
        var s = ""
        for _ in 0..<int(0...8) {
            let choice = int(0...9)
            switch choice {
            case 0: s += pick(["\"", "'", "\\", "\n", "\t", "\u{0}", "\u{7F}", "\u{1B}"])
            case 1: s += pick(["é", "e\u{301}", "Zürich", "日本", "😀", "ＡＢＣ"])
            case 2: s += pick(["%@", "%K", "%%", "*", "?", "$x", "#"])
            default: s += String(UnicodeScalar(UInt8(int(0x20...0x7E))))
            }
        }
        return s
    }

    mutating func scalar() -> StoredValue {
        switch int(0...13) {
        case 0: return .null
        case 1: return .integer(Int64(int(-1000...1000)))
        case 2: return .integer(pick([Int64.max, Int64.min, Int64.min + 1, 0]))
        case 3: return .double(Double(int(-100000...100000)) / Double(pick([1, 3, 7, 1000, 1 << 20])))
        case 4: return .double(pick([Double.infinity, -Double.infinity, 1e300, Double.leastNonzeroMagnitude, -0.0, 0.1, 9.2e-5, 1e20]))
        case 5: return .bool(chance(50))
        case 6: return .string(string())
        case 7: return .date(secondsSinceReferenceDate: pick([600739200, -978250148, 0.1234567, 600739200.5, 1e9 / 3]))
        case 8: return .decimal(Decimal(string: pick(["0.07", "13", "-2.5", "123456.789"])) ?? 0)
        case 9: return .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID())
        case 10: return .data(Data((0..<int(0...6)).map { _ in UInt8(int(0...255)) }))
        case 11:
            return .uri(
                URL(string: pick(["https://example.com/a?b=c", "file:///tmp/x", "mailto:a@b.c"]))
                    ?? URL(fileURLWithPath: "/"))
        case 12: return .objectID(ObjectReference(entityName: "Employee", storeIdentifier: "3F2A-11", identity: .primaryKey(Int64(int(1...99)))))
        default:
            return .objectID(
                ObjectReference(
                    entityName: "Department", storeIdentifier: "",
                    identity: .temporary(UUID(uuidString: "00000000-0000-0000-0000-00000000000A") ?? UUID())))
        }
    }

    mutating func keyComponents() -> [KeyPathComponent] {
        var components: [KeyPathComponent] = []
        for _ in 0..<int(1...3) {
            if chance(15) {
                components.append(.collectionOperator(pick(CollectionOperator.allCases)))
            } else {
                components.append(.key(identifier()))
            }
        }
        return components
    }

    mutating func expression(depth: Int) -> ExpressionNode {
        if depth <= 0 || chance(30) {
            switch int(0...4) {
            case 0, 1: return .constant(scalar())
            case 2: return .keyPath(keyComponents())
            case 3: return .variable(pick(Self.variables))
            default: return .evaluatedObject
            }
        }
        let d = depth - 1
        switch int(0...15) {
        case 0: return ExpressionNode(kind: .constantCollection((0..<int(0...3)).map { _ in .constant(scalar()) }, ordered: chance(50)))
        case 1: return .keyPath(keyComponents(), on: expression(depth: d))
        case 2: return .aggregate((0..<int(0...3)).map { _ in expression(depth: d) })
        case 3:
            let selector: ExpressionNode.IndexSelector = pick([.first, .last, .size, .at(expression(depth: d))])
            return .index(expression(depth: d), selector)
        case 4, 5:
            let f = pick([
                BuiltinFunction.add, .subtract, .multiply, .divide, .raise, .bitwiseAnd, .bitwiseOr, .bitwiseXor,
                .leftShift, .rightShift,
            ])
            return .function(f, [expression(depth: d), expression(depth: d)])
        case 6: return .function(pick([.negate, .onesComplement]), [expression(depth: d)])
        case 7:
            let f = pick(BuiltinFunction.allCases.filter { $0.infixOperator == nil && $0 != .negate && $0 != .onesComplement })
            return .function(f, (0..<f.arity).map { _ in expression(depth: d) })
        case 8:
            return ExpressionNode(
                kind: .methodCall(
                    target: expression(depth: d), selector: pick(["pow:", "uppercase", "a:b:"]),
                    arguments: (0..<int(0...2)).map { _ in expression(depth: d) }))
        case 9:
            return ExpressionNode(
                kind: .subquery(
                    collection: expression(depth: d), variable: pick(Self.variables),
                    predicate: predicate(depth: d)))
        case 10: return ExpressionNode(kind: .ternary(predicate(depth: d), expression(depth: d), expression(depth: d)))
        case 11: return ExpressionNode(kind: .cast(.keyPath(keyComponents()), type: pick(["NSString", "NSDate", "NSNumber"])))
        case 12: return ExpressionNode(kind: .assignment(variable: pick(Self.variables), expression(depth: d)))
        case 13:
            return ExpressionNode(kind: .setOperation(pick([.union, .intersect, .minus]), expression(depth: d), expression(depth: d)))
        default: return .constant(scalar())
        }
    }

    mutating func options() -> ComparisonOptions {
        var o: ComparisonOptions = []
        if chance(30) { o.insert(.caseInsensitive) }
        if chance(30) { o.insert(.diacriticInsensitive) }
        if chance(10) { o.insert(.normalized) }
        if chance(10) { o.insert(.localeSensitive) }
        return o
    }

    mutating func predicate(depth: Int) -> PredicateNode {
        if depth <= 0 || chance(40) { return comparison(depth: depth - 1) }
        let d = depth - 1
        switch int(0...5) {
        case 0: return chance(50) ? .truePredicate : .falsePredicate
        case 1: return .and((0..<int(2...3)).map { _ in predicate(depth: d) })
        case 2: return .or((0..<int(2...3)).map { _ in predicate(depth: d) })
        case 3: return .not(predicate(depth: d))
        default: return comparison(depth: d)
        }
    }

    mutating func comparison(depth: Int) -> PredicateNode {
        let op = pick([
            ComparisonOperator.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .equalTo, .notEqualTo,
            .like, .beginsWith, .endsWith, .in, .contains, .between, .utiConformsTo, .utiEquals,
            .customSelector("isKindOfClass:"), .customSelector("a:b:"),
        ])
        let modifier = pick([ComparisonModifier.direct, .direct, .any, .all])
        return .comparison(
            expression(depth: max(depth, 0)), op, expression(depth: max(depth, 0)), modifier: modifier,
            options: op.acceptsOptions ? options() : [])
    }
}

/// The normalisations of §5: booleans → integers, Decimals → doubles, collection constants → aggregates.
enum RoundTripNormalization {
    static func normalize(_ p: PredicateNode) -> PredicateNode {
        switch p.kind {
        case .constant: return p
        case .comparison(let c):
            return .comparison(normalize(c.lhs), c.op, normalize(c.rhs), modifier: c.modifier, options: c.options)
        case .and(let items): return .and(items.map(normalize))
        case .or(let items): return .or(items.map(normalize))
        case .not(let inner): return .not(normalize(inner))
        }
    }

    static func normalize(_ e: ExpressionNode) -> ExpressionNode {
        switch e.kind {
        case .constant(.bool(let b)): return .constant(.integer(b ? 1 : 0))
        case .constant(.decimal(let d)): return .constant(.double(StoredValue.decimalAsDouble(d)))
        case .constant, .evaluatedObject, .variable: return e
        case .constantCollection(let items, _), .aggregate(let items): return .aggregate(items.map(normalize))
        case .keyPath(let base, let components): return .keyPath(components, on: base.map(normalize))
        case .index(let base, let selector):
            if case .at(let i) = selector { return .index(normalize(base), .at(normalize(i))) }
            return .index(normalize(base), selector)
        case .function(let f, let args): return .function(f, args.map(normalize))
        case .methodCall(let t, let s, let args):
            return ExpressionNode(kind: .methodCall(target: normalize(t), selector: s, arguments: args.map(normalize)))
        case .subquery(let c, let v, let p): return ExpressionNode(kind: .subquery(collection: normalize(c), variable: v, predicate: normalize(p)))
        case .ternary(let p, let a, let b): return ExpressionNode(kind: .ternary(normalize(p), normalize(a), normalize(b)))
        case .cast(let v, let t): return ExpressionNode(kind: .cast(normalize(v), type: t))
        case .assignment(let v, let x): return ExpressionNode(kind: .assignment(variable: v, normalize(x)))
        case .setOperation(let op, let a, let b): return ExpressionNode(kind: .setOperation(op, normalize(a), normalize(b)))
        }
    }
}
