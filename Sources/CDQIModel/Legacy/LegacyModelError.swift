/// Why an Xcode 3 `elements` file could not be decoded.
enum LegacyModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a well-formed binary property list.
    case propertyList(BinaryPropertyListError)
    /// The property list is not a well-formed keyed archive.
    case archive(KeyedArchiveError)
    /// The archive is well formed but does not hold an Xcode 3 model (`XDPMModel`).
    case notAModelArchive(String)
    /// The archive holds a model whose structure is not the one Xcode 3 writes.
    case malformedModel(String)

    var description: String {
        switch self {
        case .propertyList(let error): "\(error)"
        case .archive(let error): "\(error)"
        case .notAModelArchive(let reason): "not an Xcode 3 model archive: \(reason)"
        case .malformedModel(let reason): "malformed Xcode 3 model: \(reason)"
        }
    }
}
