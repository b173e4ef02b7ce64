import CDQIStore

// Ordering: successive orderings append; ``reorder()`` clears them. Ties are broken by primary key,
// so results are deterministic.
extension Query {
    /// Appends orderings by key path: `order("lastName", "firstName")`,
    /// `order(ascending: false, comparison: .caseInsensitiveCompare, "lastName")`.
    ///
    /// - Parameters:
    ///   - ascending: Whether values sort ascending (NULL first) or descending (NULL last).
    ///   - comparison: How strings compare: by code point (`compare:`, the default), case-insensitively,
    ///     or localized (Core Data's selectors; see ``FetchSortDescriptor/Comparison``).
    public func order(
        ascending: Bool = true, comparison: FetchSortDescriptor.Comparison = .compare, _ keyPaths: String...
    ) -> Query {
        order(keyPaths.map { FetchSortDescriptor(keyPath: $0, ascending: ascending, comparison: comparison) })
    }

    /// Appends an ordering by the proxy `build` returns: `order(ascending: false) { $0.salary }`.
    public func order(
        ascending: Bool = true, comparison: FetchSortDescriptor.Comparison = .compare,
        _ build: (M.CDQIAttribute) -> any KeyPathExpressionConvertible
    ) -> Query {
        order([FetchSortDescriptor(keyPath: build(M.CDQIAttribute()).cdqiKeyPath, ascending: ascending, comparison: comparison)])
    }

    /// Appends orderings by the proxies `build` returns: `order { [$0.lastName, $0.firstName] }`.
    public func order(
        ascending: Bool = true, comparison: FetchSortDescriptor.Comparison = .compare,
        _ build: (M.CDQIAttribute) -> [any KeyPathExpressionConvertible]
    ) -> Query {
        order(build(M.CDQIAttribute()).map {
            FetchSortDescriptor(keyPath: $0.cdqiKeyPath, ascending: ascending, comparison: comparison)
        })
    }

    /// Appends the sort descriptors `build` returns, each with its own direction and comparison:
    /// `order { [$0.lastName.cdqiDescending(), $0.firstName.cdqiAscending(.localizedStandardCompare)] }`.
    public func order(_ build: (M.CDQIAttribute) -> [FetchSortDescriptor]) -> Query {
        order(build(M.CDQIAttribute()))
    }

    /// Appends sort descriptors.
    public func order(_ descriptors: FetchSortDescriptor...) -> Query {
        order(descriptors)
    }

    /// Appends sort descriptors.
    public func order(_ descriptors: [FetchSortDescriptor]) -> Query {
        var copy = self
        copy.sortDescriptors += descriptors
        return copy
    }

    /// Removes every ordering.
    public func reorder() -> Query {
        var copy = self
        copy.sortDescriptors = []
        return copy
    }
}

extension KeyPathExpressionConvertible {
    /// An ascending sort by this proxy's key path, strings compared as `comparison` says.
    public func cdqiAscending(_ comparison: FetchSortDescriptor.Comparison = .compare) -> FetchSortDescriptor {
        FetchSortDescriptor(keyPath: cdqiKeyPath, ascending: true, comparison: comparison)
    }

    /// A descending sort by this proxy's key path, strings compared as `comparison` says.
    public func cdqiDescending(_ comparison: FetchSortDescriptor.Comparison = .compare) -> FetchSortDescriptor {
        FetchSortDescriptor(keyPath: cdqiKeyPath, ascending: false, comparison: comparison)
    }
}
