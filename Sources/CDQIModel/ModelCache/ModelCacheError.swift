/// Why a store's cached model (`Z_MODELCACHE`) could not be decoded.
public enum ModelCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The blob is not raw DEFLATE (or a bare binary property list).
    case notCompressed(String)
    /// The blob inflates to more than the decoder accepts.
    case tooLarge(limit: Int)
    /// The inflated bytes are not a keyed archive of an `NSManagedObjectModel`, or the archive is damaged.
    case notAModelArchive(String)
    /// The archive decodes, but the model in it is inconsistent: every problem found.
    case invalidModel([String])

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .notCompressed(let reason): "the cached model is not compressed as Core Data does: \(reason)"
        case .tooLarge(let limit): "the cached model inflates to more than \(limit) bytes"
        case .notAModelArchive(let reason): "the cached model is not an archived NSManagedObjectModel: \(reason)"
        case .invalidModel(let problems): "the cached model is inconsistent: " + problems.joined(separator: "; ")
        }
    }
}
