import CDQIStore

/// Something `order(_:)` accepts, alone or mixed with the others in one call: a key path written as a
/// string, a proxy, or a ``FetchSortDescriptor`` (which Core Data code writes as `NSSortDescriptor`):
///
/// ```swift
/// query.order("name", FetchSortDescriptor(key: "startDate", ascending: false))
/// query.order(ascending: false, project.name)
/// ```
public protocol SortDescriptorConvertible {
    /// The sort this value stands for; a string or proxy sorts as `ascending` and `comparison` say,
    /// a sort descriptor keeps its own direction and comparison.
    func cdqiSortDescriptor(ascending: Bool, comparison: FetchSortDescriptor.Comparison) -> FetchSortDescriptor
}

extension String: SortDescriptorConvertible {
    /// A sort by the key path this string spells.
    public func cdqiSortDescriptor(ascending: Bool, comparison: FetchSortDescriptor.Comparison) -> FetchSortDescriptor {
        FetchSortDescriptor(keyPath: self, ascending: ascending, comparison: comparison)
    }
}

extension AttributeProxy: SortDescriptorConvertible {
    /// A sort by the proxy's key path.
    public func cdqiSortDescriptor(ascending: Bool, comparison: FetchSortDescriptor.Comparison) -> FetchSortDescriptor {
        FetchSortDescriptor(keyPath: cdqiKeyPath, ascending: ascending, comparison: comparison)
    }
}

extension FetchSortDescriptor: SortDescriptorConvertible {
    /// The descriptor itself: its own direction and comparison win over the call's.
    public func cdqiSortDescriptor(ascending: Bool, comparison: FetchSortDescriptor.Comparison) -> FetchSortDescriptor {
        self
    }

    /// A sort by `key` compared with `compare:`, spelled as Core Data code spells `NSSortDescriptor`
    /// (`NSSortDescriptor(key: "startDate", ascending: false)` becomes
    /// `FetchSortDescriptor(key: "startDate", ascending: false)`).
    public init(key: String, ascending: Bool) {
        self.init(keyPath: key, ascending: ascending, comparison: .compare)
    }
}
