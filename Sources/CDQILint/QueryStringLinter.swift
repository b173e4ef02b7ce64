import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation

/// Checks the query strings of Swift sources against a model, as `cdqi lint` does: the predicate format
/// strings of `filter`, `having` and `PredicateNode(format:)` (syntax, with the error's column), and,
/// where the source shows the entity, their keys (unknown keys, to-many keys where one value is needed,
/// transient properties: everything the SQL compiler refuses, found by compiling the fetch against an
/// empty in-memory store of the model) and constants of the wrong kind (a warning: such comparisons are
/// always false); the key paths of `order`, `select` and `groupBy`.
public struct QueryStringLinter {
    /// The model the strings are checked against.
    public let model: ManagedObjectModel
    private let store: SQLiteStore

    /// A linter for `model`.
    ///
    /// - Throws: ``StoreError`` when the model cannot be laid out as a store (a model that loads always can).
    public init(model: ManagedObjectModel) throws {
        self.model = model
        store = try SQLiteStore(model: model, url: nil)
    }

    /// The result of linting sources.
    public struct Report: Sendable {
        /// What was found, in file and source order.
        public var diagnostics: [LintDiagnostic] = []
        /// How many query strings were checked, and how many of those against an entity.
        public var checkedStrings = 0
        public var checkedAgainstEntity = 0

        /// An empty report.
        public init() {}

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Lints one Swift source text; `file` names it in diagnostics.
    public func lint(source: String, file: String, into report: inout Report) {
        for call in QueryStringFinder(source: source).calls() {
            let entity = call.entity.flatMap(entityName(for:))
            report.checkedStrings += call.strings.count
            if entity != nil { report.checkedAgainstEntity += call.strings.count }
            switch call.kind {
            case .predicate, .having:
                guard let format = call.strings.first else { continue }
                check(
                    format: format, arguments: call.arguments, entity: call.kind == .predicate ? entity : nil,
                    file: file, into: &report.diagnostics)
            case .keyPaths(let method):
                guard let entity else { continue }
                for keyPath in call.strings {
                    if let problem = keyPathProblem(keyPath.value, entity: entity, allowsToMany: method == "select") {
                        report.diagnostics.append(
                            LintDiagnostic(
                                file: file, line: keyPath.line, column: keyPath.column, severity: .error,
                                message: "\(method)(\"\(keyPath.value)\"): \(problem)"))
                    }
                }
            }
        }
    }

    /// The entity named by a class or entity name in the source.
    private func entityName(for name: String) -> String? {
        if let entity = model.entities.first(where: { $0.className == name }) { return entity.name }
        return model.entity(named: name)?.name
    }

    private func check(
        format: QueryStringCall.StringArgument, arguments: [QueryStringCall.Argument], entity: String?,
        file: String, into diagnostics: inout [LintDiagnostic]
    ) {
        let placeholders = Self.placeholders(in: format.value)
        var values: [Any?] = []
        var keysKnown = true
        for (position, isKey) in placeholders.enumerated() {
            let argument = position < arguments.count ? arguments[position] : nil
            switch argument {
            case .string(let text)?: values.append(text)
            case .integer(let number)?: values.append(number)
            case .double(let number)?: values.append(number)
            case .bool(let flag)?: values.append(flag)
            case .null?: values.append(nil)
            case .unknown?:
                // Known only at run time: a key we cannot check, or a value of unknown kind.
                if isKey { keysKnown = false }
                values.append(isKey ? "self" : nil)
            case nil:
                diagnostics.append(
                    LintDiagnostic(
                        file: file, line: format.line, column: format.column, severity: .error,
                        message: "the format has \(placeholders.count) placeholder\(placeholders.count == 1 ? "" : "s") "
                            + "but \(arguments.count) argument\(arguments.count == 1 ? "" : "s"): \"\(format.value)\""))
                return
            }
        }
        let predicate: PredicateNode
        do {
            predicate = try PredicateNode(format: format.value, argumentArray: values)
        } catch {
            // The literal's opening quote is at `column`; the offset counts characters of its value, which
            // is the source text unless escapes came before it (then the column is approximate).
            let column = format.isMultiline ? format.column : format.column + 1 + error.characterOffset
            diagnostics.append(
                LintDiagnostic(
                    file: file, line: format.line, column: column, severity: .error,
                    message: "\(error.message) in \"\(format.value)\""))
            return
        }
        guard let entity, keysKnown else { return }
        do {
            _ = try store.sql(for: FetchRequest(entityName: entity, predicate: predicate))
        } catch {
            diagnostics.append(
                LintDiagnostic(
                    file: file, line: format.line, column: format.column, severity: .error,
                    message: "\(error) (in \"\(format.value)\")"))
            return
        }
        for mixed in MixedKindComparison.find(in: predicate, entityName: entity, model: model) {
            diagnostics.append(
                LintDiagnostic(
                    file: file, line: format.line, column: format.column, severity: .warning, message: mixed.description))
        }
    }

    /// Whether each placeholder of a format (`%@`, `%K`, `%d`, …, outside quoted strings) is `%K`.
    static func placeholders(in format: String) -> [Bool] {
        var result: [Bool] = []
        var quote: Character?
        var characters = format.makeIterator()
        while let character = characters.next() {
            if let open = quote {
                if character == "\\" { _ = characters.next() } else if character == open { quote = nil }
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
            } else if character == "%" {
                guard let next = characters.next() else { break }
                if next == "%" { continue }
                result.append(next == "K")
            }
        }
        return result
    }

    /// Why `keyPath` is not a usable key path of `entity`, or `nil` when it is: each key must exist, and
    /// only the last may be a to-many relationship where the method takes one (`select("employees")` is
    /// a to-many count in a dictionary fetch; `order` and `groupBy` need single values).
    private func keyPathProblem(_ keyPath: String, entity name: String, allowsToMany: Bool) -> String? {
        guard var entity = model.entity(named: name) else { return nil }
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (position, key) in keys.enumerated() {
            let isLast = position == keys.count - 1
            if model.allAttributes(of: entity).contains(where: { $0.name == key }) {
                return isLast ? nil : "'\(key)' of entity '\(entity.name)' is an attribute, so nothing follows it"
            }
            guard let relationship = model.allRelationships(of: entity).first(where: { $0.name == key }) else {
                return "unknown key '\(key)' on entity '\(entity.name)'"
            }
            if relationship.isToMany, !(isLast && allowsToMany) {
                return "'\(key)' of entity '\(entity.name)' is a to-many relationship: it has no single value here"
            }
            guard let next = model.entity(named: relationship.destinationEntityName) else { return nil }
            entity = next
        }
        return nil
    }
}
