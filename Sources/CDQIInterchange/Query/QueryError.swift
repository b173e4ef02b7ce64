import CDQIPredicate

/// Why a store query could not run.
public enum QueryError: Error, Sendable, CustomStringConvertible {
    /// The `--where` predicate does not parse.
    case badPredicate(PredicateParseError)
    /// A `--select` expression does not parse.
    case badSelection(String, PredicateParseError)
    /// An `--order` key is malformed (`KEY`, `KEY:asc` or `KEY:desc`).
    case badOrder(String)
    /// The model has no entity with this name.
    case unknownEntity(name: String, known: [String])
    /// The request does not fit the model (an unknown key, a to-many key where one value is needed, …).
    case invalidRequest(String)
    /// The store file does not exist (a query never creates one).
    case missingStore(path: String)
    /// The store could not be opened or read.
    case store(String)

    /// Whether the problem is in what the user asked for (rather than in the store).
    public var isUsageError: Bool {
        switch self {
        case .badPredicate, .badSelection, .badOrder, .unknownEntity, .invalidRequest: true
        case .missingStore, .store: false
        }
    }

    /// A sentence describing the problem; for a parse error, the source with a caret under the position.
    public var description: String {
        switch self {
        case .badPredicate(let error):
            return "--where: \(error.message) at character \(error.characterOffset + 1)\n" + Self.caret(error)
        case .badSelection(let text, let error):
            return "--select '\(text)': \(error.message) at character \(error.characterOffset + 1)\n" + Self.caret(error)
        case .badOrder(let text):
            return "--order '\(text)': expected KEY, KEY:asc or KEY:desc"
        case .unknownEntity(let name, let known):
            return "the model has no entity '\(name)' (entities: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
        case .invalidRequest(let message):
            return message
        case .missingStore(let path):
            return "\(path): no such store (query and export never create one; import does)"
        case .store(let message):
            return message
        }
    }

    /// The source line and a caret under the error's position, both indented two spaces.
    private static func caret(_ error: PredicateParseError) -> String {
        // PredicateParseError's description is "error: …\n --> source\n      ^"; keep its last two lines.
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3 else { return "  \(error.source)" }
        return "  " + lines[lines.count - 2].dropFirst(5) + "\n  " + lines[lines.count - 1].dropFirst(5)
    }
}
