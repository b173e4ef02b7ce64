import CDQIStore

extension Query {
    /// Adds a sort key, after the earlier ones.
    ///
    /// ```swift
    /// query.order(by: "department").order(by: "name")
    /// query.order(by: "quantity", .descending)
    /// query.order(by: "name", .ascending, .localizedCaseInsensitive)
    /// ```
    ///
    /// - Parameters:
    ///   - attribute: the key path of the value to sort by (`"name"`, `"department.name"`).
    ///   - direction: ascending (the default) or descending.
    ///   - selector: how strings compare: by code point (the default), ``Selector/localizedStandard``
    ///     or ``Selector/localizedCaseInsensitive``.
    public func order(by attribute: String, _ direction: SortDirection = .ascending, _ selector: Selector = .none) -> Query<T> {
        adding { query throws(QueryError) in
            let comparison: FetchSortDescriptor.Comparison =
                switch selector {
                case .none: .compare
                case .localizedStandard: .localizedStandardCompare
                case .localizedCaseInsensitive: .localizedCaseInsensitiveCompare
                }
            query.sortDescriptors.append(
                FetchSortDescriptor(keyPath: attribute, ascending: direction == .ascending, comparison: comparison))
            if let first = attribute.split(separator: ".", maxSplits: 1).first {
                query.namedKeys.append(String(first))
            }
        }
    }
}

extension Query where T: Queryable {
    /// Adds a sort key named by an attribute: `order(by: .date)` is `order(by: "date")`.
    public func order(by attribute: T.Attribute, _ direction: SortDirection = .ascending, _ selector: Selector = .none) -> Query<T> {
        order(by: AttributeName.of(attribute), direction, selector)
    }
}
