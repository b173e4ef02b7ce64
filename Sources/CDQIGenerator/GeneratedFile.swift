/// A Swift source file the generator produced.
public struct GeneratedFile: Sendable, Hashable {
    /// The file name, without a folder (`EmployeeAttribute.swift`).
    public var name: String
    /// The Swift source.
    public var contents: String
    /// The names of the entities whose proxies the file holds.
    public var entityNames: [String]

    /// Creates a file.
    public init(name: String, contents: String, entityNames: [String]) {
        self.name = name
        self.contents = contents
        self.entityNames = entityNames
    }
}
