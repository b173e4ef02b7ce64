import CDQIStore

/// Why an import or export failed. A failed import has changed nothing: not the store, and no store
/// file is left behind when the import would have created it.
public enum InterchangeError: Error, Sendable, CustomStringConvertible {
    /// The document is not valid JSON.
    case syntax(JSONParseError)
    /// The document is JSON but does not fit the model: every problem found.
    case invalidDocument([DocumentProblem])
    /// The model has no entity with this name (export's entity filter).
    case unknownEntity(name: String, known: [String])
    /// The store could not be opened, read or written.
    case store(String)

    /// A sentence describing the problem (one line per problem for an invalid document).
    public var description: String {
        switch self {
        case .syntax(let error):
            return "the document is not valid JSON: \(error)"
        case .invalidDocument(let problems):
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            return "the document does not fit the model (\(count); nothing was imported):\n"
                + problems.map { "  - \($0)" }.joined(separator: "\n")
        case .unknownEntity(let name, let known):
            return "the model has no entity '\(name)' (entities: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
        case .store(let message):
            return message
        }
    }
}
