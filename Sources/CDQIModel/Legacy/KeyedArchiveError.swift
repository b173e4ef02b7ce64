/// Why a property list could not be read as an `NSKeyedArchiver` archive.
enum KeyedArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The property list lacks the `$archiver`, `$objects` or `$top` of a keyed archive.
    case notAKeyedArchive(String)
    /// An object reference (`CF$UID`) points past the end of `$objects`.
    case danglingReference(UInt64, objectCount: Int)
    /// A value has the wrong shape for what it stands for.
    case unexpected(String)

    var description: String {
        switch self {
        case .notAKeyedArchive(let reason):
            "not an NSKeyedArchiver archive: \(reason)"
        case .danglingReference(let reference, let count):
            "keyed archive refers to object \(reference), but holds only \(count) objects"
        case .unexpected(let reason):
            "keyed archive is malformed: \(reason)"
        }
    }
}
