/// Why a model could not be written as the `Z_MODELCACHE` blob Core Data keeps in its stores.
public enum ModelCacheEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model cannot be archived as Core Data would hold it: every problem found (two entities of
    /// one name, a parent entity missing from the model, an entity hierarchy that loops, …).
    case invalidModel([String])
    /// The model uses what this encoder cannot archive as Core Data does (Composite attributes, whose
    /// archived form no Core Data store in the reference corpus shows): every such element.
    case unsupported([String])
    /// The archive could not be completed (an object left unwritten), with what went wrong.
    case archiveIncomplete(String)
    /// zlib could not compress the archive, with its message.
    case compressionFailed(String)

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .invalidModel(let problems): "the model cannot be archived as a Core Data model cache: " + problems.joined(separator: "; ")
        case .unsupported(let elements): "the model cache cannot archive " + elements.joined(separator: "; ")
        case .archiveIncomplete(let reason): "the model cache archive could not be completed: \(reason)"
        case .compressionFailed(let reason): "the model cache could not be compressed: \(reason)"
        }
    }
}
