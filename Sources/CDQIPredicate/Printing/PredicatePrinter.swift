import Foundation

extension PredicateNode {
    /// The format string of the predicate (§5). Parsing it gives back an equal predicate, up to the
    /// normalisations §5 lists (booleans print as `1`/`0`, collection constants as aggregates, …).
    public var predicateFormat: String {
        var out = ""
        PredicatePrinter.write(self, to: &out)
        return out
    }
}

extension ExpressionNode {
    /// The format string of the expression (§5).
    public var expressionFormat: String {
        var out = ""
        PredicatePrinter.write(self, to: &out)
        return out
    }
}

/// Prints ASTs in `predicateFormat` syntax.
enum PredicatePrinter {
    static let primaryPrecedence = 11
    static let unaryPrecedence = 10

    // MARK: Predicates

    static func write(_ p: PredicateNode, to out: inout String) {
        switch p.kind {
        case .constant(let value):
            out += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let c):
            switch c.modifier {
            case .direct: break
            case .any: out += "ANY "
            case .all: out += "ALL "
            }
            write(c.lhs, to: &out)
            out += " "
            out += c.op.symbol
            if c.op.acceptsOptions { out += c.options.formatSuffix }
            out += " "
            write(c.rhs, to: &out)
        case .and(let items):
            writeCompound(items, joiner: " AND ", empty: "TRUEPREDICATE", to: &out)
        case .or(let items):
            writeCompound(items, joiner: " OR ", empty: "FALSEPREDICATE", to: &out)
        case .not(let inner):
            out += "NOT "
            writeChild(inner, to: &out)
        }
    }

    static func writeCompound(_ items: [PredicateNode], joiner: String, empty: String, to out: inout String) {
        if items.isEmpty {
            out += empty
            return
        }
        if items.count == 1 {
            write(items[0], to: &out)
            return
        }
        for (i, item) in items.enumerated() {
            if i > 0 { out += joiner }
            writeChild(item, to: &out)
        }
    }

    static func writeChild(_ p: PredicateNode, to out: inout String) {
        switch p.kind {
        case .and(let items) where items.count > 1, .or(let items) where items.count > 1:
            out += "("
            write(p, to: &out)
            out += ")"
        case .not:
            out += "("
            write(p, to: &out)
            out += ")"
        default:
            write(p, to: &out)
        }
    }

    // MARK: Expressions

    static func precedence(of e: ExpressionNode) -> Int {
        switch e.kind {
        case .assignment: return 1
        case .setOperation: return 2
        case .function(let f, _):
            switch f {
            case .bitwiseOr: return 3
            case .bitwiseXor: return 4
            case .bitwiseAnd: return 5
            case .leftShift, .rightShift: return 6
            case .add, .subtract: return 7
            case .multiply, .divide: return 8
            case .raise: return 9
            case .negate, .onesComplement: return unaryPrecedence
            default: return primaryPrecedence
            }
        case .constant(let value):
            switch value {
            case .integer(let i): return i < 0 && i != Int64.min ? unaryPrecedence : primaryPrecedence
            case .double(let d): return d.isFinite && d.sign == .minus ? unaryPrecedence : primaryPrecedence
            case .decimal(let d):
                let v = StoredValue.decimalAsDouble(d)
                return v.isFinite && v.sign == .minus ? unaryPrecedence : primaryPrecedence
            default: return primaryPrecedence
            }
        default:
            return primaryPrecedence
        }
    }

    static func writeOperand(_ e: ExpressionNode, minimum: Int, to out: inout String) {
        if precedence(of: e) < minimum {
            out += "("
            write(e, to: &out)
            out += ")"
        } else {
            write(e, to: &out)
        }
    }

    /// Writes the base of a postfix `.key` or `[i]`: numbers are parenthesised (`(5).x`), and so is a
    /// dotted key path before an index (`(a.d)[0]`, §2.1).
    static func writePostfixBase(_ e: ExpressionNode, forIndex: Bool, to out: inout String) {
        var needsParentheses = precedence(of: e) < primaryPrecedence
        switch e.kind {
        case .constant(let value):
            switch value {
            case .integer, .double, .decimal, .bool: needsParentheses = true
            default: break
            }
        case .keyPath(let base, let components):
            if forIndex && (base != nil || components.count > 1) { needsParentheses = true }
        default:
            break
        }
        if needsParentheses {
            out += "("
            write(e, to: &out)
            out += ")"
        } else {
            write(e, to: &out)
        }
    }

    static func write(_ e: ExpressionNode, to out: inout String) {
        switch e.kind {
        case .constant(let value):
            writeConstant(value, to: &out)
        case .constantCollection(let items, _), .aggregate(let items):
            out += "{"
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                write(item, to: &out)
            }
            out += "}"
        case .evaluatedObject:
            out += "SELF"
        case .variable(let name):
            writeVariable(name, to: &out)
        case .keyPath(let base, let components):
            if let base {
                writePostfixBase(base, forIndex: false, to: &out)
                out += "."
            }
            for (i, component) in components.enumerated() {
                if i > 0 { out += "." }
                switch component {
                case .key(let key): writeKey(key, to: &out)
                case .collectionOperator(let op): out += "@" + op.rawValue
                }
            }
        case .index(let base, let selector):
            writePostfixBase(base, forIndex: true, to: &out)
            switch selector {
            case .first: out += "[FIRST]"
            case .last: out += "[LAST]"
            case .size: out += "[SIZE]"
            case .at(let i):
                out += "["
                write(i, to: &out)
                out += "]"
            }
        case .function(let f, let args):
            writeFunction(f, args, to: &out)
        case .methodCall(let target, let selector, let args):
            out += "FUNCTION("
            write(target, to: &out)
            out += ", "
            writeString(selector, to: &out)
            for arg in args {
                out += " , "
                write(arg, to: &out)
            }
            out += ")"
        case .subquery(let collection, let variable, let predicate):
            out += "SUBQUERY("
            write(collection, to: &out)
            out += ", "
            writeVariable(variable, to: &out)
            out += ", "
            write(predicate, to: &out)
            out += ")"
        case .ternary(let p, let a, let b):
            out += "TERNARY("
            write(p, to: &out)
            out += ", "
            write(a, to: &out)
            out += ", "
            write(b, to: &out)
            out += ")"
        case .cast(let value, let type):
            out += "CAST("
            write(value, to: &out)
            out += ", "
            writeString(type, to: &out)
            out += ")"
        case .assignment(let variable, let value):
            writeVariable(variable, to: &out)
            out += " := "
            writeOperand(value, minimum: 1, to: &out)
        case .setOperation(let op, let a, let b):
            writeOperand(a, minimum: 2, to: &out)
            out += " " + op.rawValue + " "
            writeOperand(b, minimum: 3, to: &out)
        }
    }

    static func writeFunction(_ f: BuiltinFunction, _ args: [ExpressionNode], to out: inout String) {
        if let symbol = f.infixOperator, args.count == 2 {
            let p = precedence(of: ExpressionNode(kind: .function(f, args)))
            writeOperand(args[0], minimum: p, to: &out)
            out += " " + symbol + " "
            writeOperand(args[1], minimum: p + 1, to: &out)
            return
        }
        if (f == .negate || f == .onesComplement) && args.count == 1 {
            out += f == .negate ? "-" : "~"
            writeOperand(args[0], minimum: unaryPrecedence, to: &out)
            return
        }
        out += f.selector
        out += "("
        for (i, arg) in args.enumerated() {
            if i > 0 { out += ", " }
            write(arg, to: &out)
        }
        out += ")"
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
        return name.utf8.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
        }
    }

    static func writeKey(_ key: String, to out: inout String) {
        if isIdentifier(key) && Keyword.isReserved(key) { out += "#" }
        out += key
    }

    static func writeVariable(_ name: String, to out: inout String) {
        out += "$"
        writeKey(name, to: &out)
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    static func writeDouble(_ d: Double, to out: inout String) {
        if d.isNaN {
            out += "nil"
        } else if d.isInfinite {
            out += d < 0 ? "CAST(\"-inf\", \"NSNumber\")" : "CAST(\"inf\", \"NSNumber\")"
        } else {
            out += d.description
        }
    }

    static func writeConstant(_ value: StoredValue, to out: inout String) {
        switch value {
        case .null: out += "nil"
        case .integer(let i):
            if i == Int64.min {
                out += "CAST(\"\(i)\", \"NSNumber\")"
            } else {
                out += String(i)
            }
        case .double(let d): writeDouble(d, to: &out)
        case .decimal(let d): writeDouble(StoredValue.decimalAsDouble(d), to: &out)
        case .bool(let b): out += b ? "1" : "0"
        case .string(let s): writeString(s, to: &out)
        case .date(let seconds):
            out += "CAST("
            if seconds.isFinite {
                out += dateSecondsText(seconds)
            } else {
                writeDouble(seconds, to: &out)
            }
            out += ", \"NSDate\")"
        case .data(let data):
            out += "CAST("
            writeString(data.base64EncodedString(), to: &out)
            out += ", \"NSData\")"
        case .uuid(let uuid):
            out += "CAST(\"\(uuid.uuidString)\", \"NSUUID\")"
        case .uri(let url):
            out += "CAST("
            writeString(url.absoluteString, to: &out)
            out += ", \"NSURL\")"
        case .objectID(let reference):
            out += "CAST("
            writeString(reference.uriString, to: &out)
            out += ", \"NSManagedObjectID\")"
        }
    }

    /// Seconds with six decimals (`600739200.000000`), or the shortest round-trip form when six
    /// decimals would lose precision (§5 rule 5).
    static func dateSecondsText(_ seconds: Double) -> String {
        let fixed = String(format: "%.6f", seconds)
        if Double(fixed) == seconds { return fixed }
        return seconds.description
    }
}
