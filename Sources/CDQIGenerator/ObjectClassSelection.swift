/// Which entities get a generated class (or class extension) besides their proxy.
public enum ObjectClassSelection: String, Sendable, Hashable, CaseIterable {
    /// As the model's code-generation setting says, like Xcode: a full class for entities whose
    /// `codeGenerationType` is `class`, an extension with the properties for `category`, nothing for
    /// manual entities. The default.
    case asModelSays
    /// A full class for every entity that has a class name (`cdqi --objects`).
    case all
}
