/// The access level of the generated declarations.
public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
    /// No modifier: the proxies are visible inside the module that compiles them.
    case `internal`
    /// `public`: the proxies are part of the module's interface, for models that live in a library.
    case `public`

    /// The modifier to write before a declaration, with its trailing space (`"public "` or `""`).
    var declarationPrefix: String {
        switch self {
        case .internal: ""
        case .public: "public "
        }
    }
}
