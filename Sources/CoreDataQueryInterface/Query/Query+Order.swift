import CDQIStore

// Ordering: successive orderings append; ``reorder()`` clears them. Ties are broken by primary key,
// so results are deterministic.
extension Query {
    /// Appends orderings by key paths, proxies and sort descriptors, mixed as needed:
    /// `order("lastName", "firstName")`, `order(ascending: false, project.name)`,
    /// `order("name", FetchSortDescriptor(key: "startDate", ascending: false))`.
    ///
    /// - Parameters:
    ///   - ascending: Whether values sort ascending (NULL first) or descending (NULL last); a
    ///     ``FetchSortDescriptor`` keeps its own direction.
    ///   - comparison: How strings compare: by code point (`compare:`, the default), case-insensitively,
    ///     or localized (Core Data's selectors; see ``FetchSortDescriptor/Comparison``); a
    ///     ``FetchSortDescriptor`` keeps its own.
    public func order(
        ascending: Bool = true, comparison: FetchSortDescriptor.Comparison = .compare,
        _ items: any SortDescriptorConvertible...
    ) -> Query {
        order(items.map { $0.cdqiSortDescriptor(ascending: ascending, comparison: comparison) })
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
        order(
            build(M.CDQIAttribute()).map {
                FetchSortDescriptor(keyPath: $0.cdqiKeyPath, ascending: ascending, comparison: comparison)
            })
    }

    /// Appends an ordering by each closure's proxy, in order, all in one direction:
    /// `order({ $0.lastName }, { $0.firstName })`, as CDQI writes it.
    public func order(
        ascending: Bool = true, comparison: FetchSortDescriptor.Comparison = .compare,
        _ first: (M.CDQIAttribute) -> any KeyPathExpressionConvertible,
        _ second: (M.CDQIAttribute) -> any KeyPathExpressionConvertible,
        _ more: ((M.CDQIAttribute) -> any KeyPathExpressionConvertible)...
    ) -> Query {
        let proxy = M.CDQIAttribute()
        let proxies = [first(proxy), second(proxy)] + more.map { $0(proxy) }
        return order(proxies.map { FetchSortDescriptor(keyPath: $0.cdqiKeyPath, ascending: ascending, comparison: comparison) })
    }

    /// Appends the sort descriptors `build` returns, each with its own direction and comparison:
    /// `order { [$0.lastName.cdqiDescending(), $0.firstName.cdqiAscending(.localizedStandardCompare)] }`.
    public func order(_ build: (M.CDQIAttribute) -> [FetchSortDescriptor]) -> Query {
        order(build(M.CDQIAttribute()))
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
