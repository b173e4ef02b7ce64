/// Why a store's metadata (`Z_METADATA`'s property list) could not be read or written.
public struct StoreMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store (a file path, or a PostgreSQL schema).
    public var path: String
    /// What is wrong with the metadata.
    public var reason: String

    /// An error about the metadata of the store at `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "the metadata of \(path) cannot be read: \(reason)" }
}
