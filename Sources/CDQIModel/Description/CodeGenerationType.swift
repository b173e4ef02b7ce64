/// What Xcode generates for an entity (`codeGenerationType`).
public enum CodeGenerationType: String, Sendable, Hashable, Codable, CaseIterable {
    /// The class and its properties.
    case `class` = "class"
    /// Only an extension with the properties; the class is written by hand.
    case category = "category"
}
