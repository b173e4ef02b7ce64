import CDQIStore

extension Array where Element == ManagedObject {
    /// The objects in primary-key order: what exports and unordered queries print, since an unsorted
    /// fetch comes in the store's order, which is unspecified.
    func sortedByPrimaryKey() -> [ManagedObject] {
        sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
    }
}
