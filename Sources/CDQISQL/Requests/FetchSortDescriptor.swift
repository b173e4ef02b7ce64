/// One sort key of a fetch: a key path (attributes, through to-one relationships), a direction, and
/// the comparison Core Data names by selector.
public struct FetchSortDescriptor: Sendable, Hashable {
    /// How two values are compared.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        /// `compare:`: numbers numerically, strings by code point.
        case compare = "compare:"
        /// `caseInsensitiveCompare:`.
        case caseInsensitiveCompare = "caseInsensitiveCompare:"
        /// `localizedCompare:`.
        case localizedCompare = "localizedCompare:"
        /// `localizedCaseInsensitiveCompare:`.
        case localizedCaseInsensitiveCompare = "localizedCaseInsensitiveCompare:"
        /// `localizedStandardCompare:` (Finder-like: case-insensitive, digit runs as numbers).
        case localizedStandardCompare = "localizedStandardCompare:"

        /// The SQLite collation that implements the comparison.
        package var collation: String {
            switch self {
            case .compare: "BINARY"
            case .caseInsensitiveCompare: "cdqi_nocase"
            case .localizedCompare: "cdqi_localized"
            case .localizedCaseInsensitiveCompare: "cdqi_localized_nocase"
            case .localizedStandardCompare: "cdqi_localized_standard"
            }
        }
    }

    /// The dotted key path (`"department.name"`).
    public var keyPath: String
    /// Whether values sort ascending (nil first) or descending (nil last).
    public var ascending: Bool
    /// The comparison.
    public var comparison: Comparison

    /// Creates a sort descriptor.
    public init(keyPath: String, ascending: Bool = true, comparison: Comparison = .compare) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
    }

    /// Creates a sort descriptor from a Core Data selector name (`"localizedStandardCompare:"`); `nil`
    /// for a selector a store cannot sort by.
    public init?(keyPath: String, ascending: Bool = true, selector: String) {
        guard let comparison = Comparison(rawValue: selector) else { return nil }
        self.init(keyPath: keyPath, ascending: ascending, comparison: comparison)
    }
}
